import { Form, Link } from "react-router";
import { formatDay, formatOrderNumber } from "../../../common/format.ts";
import { customerSearchLimit, rolesAllow } from "../../../common/staff.ts";
import { appServices } from "../../../server/context.ts";
import { orderOfDeletedAccount, searchCustomers } from "../../../server/staff/index.ts";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { TextField } from "../../components/ui/field.tsx";
import type { Route } from "./+types/customers";
import { backOfficeMeta } from "./meta.ts";
import { staffWith } from "./access.server.ts";
import { PageHeading } from "./page-heading.tsx";

/** Customers found by name, e-mail, order number or a website's domain. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const member = await staffWith(context, request, "customers.view");
  const query = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  const { db } = context.get(appServices);
  const [found, orphan] = await Promise.all([searchCustomers(db, query), orderOfDeletedAccount(db, query)]);
  return {
    query,
    deletedAccountOrder: orphan && { id: orphan.id, number: formatOrderNumber(orphan.number), mayOpen: rolesAllow(member.roles, "orders.view") },
    limited: found.length === customerSearchLimit,
    customers: found.map((customer) => ({ ...customer, createdAt: customer.createdAt.toISOString() })),
  };
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Customers");

export default function CustomersPage({ loaderData }: Route.ComponentProps) {
  const { query, customers, limited, deletedAccountOrder: orphan } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeading title="Customers" lead="Find a person by their name, e-mail, an order number from a receipt (ACD-000042) or their website's domain." />
      <Form method="get" role="search" className="flex flex-col gap-4 sm:flex-row sm:items-end">
        <TextField label="Search customers" name="q" type="search" defaultValue={query} className="sm:w-96" autoComplete="off" />
        <Button type="submit">Search</Button>
      </Form>
      {orphan && (
        <p className="text-slate-700 dark:text-slate-300">
          Order {orphan.number} was placed from an account that has since been deleted: the order and its invoice are kept, without the buyer&apos;s name or e-mail.{" "}
          {orphan.mayOpen && (
            <Link to={`/admin/orders/${orphan.id}`} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
              Open order {orphan.number}
            </Link>
          )}
        </p>
      )}
      {query === "" || orphan ? null : customers.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-400">
          No one matches &ldquo;{query}&rdquo;. Try their e-mail, an order number like ACD-000042, or a domain like shop.example.in.
        </p>
      ) : (
        <>
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Customers found">
            {customers.map((customer) => (
              <li key={customer.id} className="flex flex-col gap-1 py-4 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <Link to={`/admin/customers/${customer.id}`} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
                    {customer.name}
                  </Link>
                  <p className="break-all text-sm text-slate-600 dark:text-slate-400">{customer.email}</p>
                </div>
                <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
                  {customer.through && <Badge>{customer.through}</Badge>}
                  {!customer.emailVerified && <Badge tone="warning">E-mail not verified</Badge>}
                  <span>Joined {formatDay(customer.createdAt)}</span>
                </div>
              </li>
            ))}
          </ul>
          {limited && <p className="text-sm text-slate-600 dark:text-slate-400">Showing the first {customerSearchLimit}. Type more of the name or e-mail to narrow it down.</p>}
        </>
      )}
    </div>
  );
}
