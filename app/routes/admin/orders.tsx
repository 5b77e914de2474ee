import { Link } from "react-router";
import { formatDay, formatOrderNumber, formatPaise, indiaDayStart } from "../../../common/format.ts";
import { orderStatuses, type OrderStatus } from "../../../common/order-statuses.ts";
import { appServices } from "../../../server/context.ts";
import { listStaffOrders, type StaffOrderFilter } from "../../../server/staff/index.ts";
import { OrderStatusBadge, orderStatusLabel } from "../../components/status-badge.tsx";
import { Select, TextField } from "../../components/ui/field.tsx";
import type { Route } from "./+types/orders";
import { backOfficeMeta } from "./meta.ts";
import { OlderLink } from "./older-link.tsx";
import { staffWith } from "./access.server.ts";
import { numberCursorIn } from "./cursor.server.ts";
import { PageHeading } from "./page-heading.tsx";
import { Choices, FilterForm } from "./filter-form.tsx";

const kinds = { course: "Courses", website: "Websites" } as const;
const isStatus = (value: string): value is OrderStatus => (orderStatuses as readonly string[]).includes(value);
const isKind = (value: string): value is keyof typeof kinds => value in kinds;

/** Rupees as typed ("6999", "6,999.50") in paise, or undefined when the field is empty or not an amount. */
function paiseIn(value: string): number | undefined {
  const rupees = Number(value.replaceAll(",", "").trim());
  return value.trim() === "" || !Number.isFinite(rupees) || rupees < 0 ? undefined : Math.round(rupees * 100);
}

/** The filters as typed, and what each means for the query; a filter that does not parse is named, not silently dropped. */
function filtersIn(params: URLSearchParams): { form: Record<string, string>; filter: StaffOrderFilter; problems: string[] } {
  const form = Object.fromEntries(["status", "kind", "from", "to", "min", "max"].map((name) => [name, (params.get(name) ?? "").trim().slice(0, 40)]));
  const filter: StaffOrderFilter = {};
  const problems: string[] = [];
  if (form.status && isStatus(form.status)) filter.status = form.status;
  if (form.kind && isKind(form.kind)) filter.kind = form.kind;
  if (form.from) {
    const from = indiaDayStart(form.from);
    if (from) filter.from = from;
    else problems.push(`“From” is not a date: ${form.from}.`);
  }
  if (form.to) {
    const to = indiaDayStart(form.to);
    // "To" includes the whole day.
    if (to) filter.to = new Date(to.getTime() + 24 * 3600_000);
    else problems.push(`“To” is not a date: ${form.to}.`);
  }
  for (const [name, label, key] of [["min", "At least", "minAmount"], ["max", "At most", "maxAmount"]] as const) {
    if (!form[name]) continue;
    const paise = paiseIn(form[name]);
    if (paise === undefined) problems.push(`“${label}” is not an amount in rupees: ${form[name]}.`);
    else filter[key] = paise;
  }
  filter.before = numberCursorIn(params);
  return { form, filter, problems };
}

/** Every order, newest first, narrowed by status, kind, dates and amount. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await staffWith(context, request, "orders.view");
  const { form, filter, problems } = filtersIn(new URL(request.url).searchParams);
  const page = problems.length > 0 ? { orders: [], next: null } : await listStaffOrders(context.get(appServices).db, filter);
  return {
    form,
    problems,
    filtered: Object.values(form).some(Boolean),
    next: page.next,
    orders: page.orders.map((order) => ({
      ...order,
      number: formatOrderNumber(order.number),
      amount: formatPaise(order.amount),
      createdAt: order.createdAt.toISOString(),
    })),
  };
}

export const meta: Route.MetaFunction = () => backOfficeMeta("Orders");

export default function OrdersPage({ loaderData }: Route.ComponentProps) {
  const { form, problems, filtered, orders, next } = loaderData;
  return (
    <div className="space-y-6">
      <PageHeading title="Orders" lead="Every order, newest first. Open one to see its payments and what happened to it, or to ask the payment provider about it." />
      <FilterForm clear={filtered && "/admin/orders"} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
        <Select label="Status" name="status" defaultValue={form.status}>
          <Choices any="Any status" choices={orderStatuses.map((status) => [status, orderStatusLabel({ status, refund: null }).label] as const)} />
        </Select>
        <Select label="Kind" name="kind" defaultValue={form.kind}>
          <Choices any="Courses and websites" choices={Object.entries(kinds)} />
        </Select>
        <TextField label="From" name="from" type="date" defaultValue={form.from} />
        <TextField label="To" name="to" type="date" defaultValue={form.to} />
        <TextField label="At least (₹)" name="min" inputMode="decimal" defaultValue={form.min} />
        <TextField label="At most (₹)" name="max" inputMode="decimal" defaultValue={form.max} />
      </FilterForm>
      {problems.length > 0 ? (
        <div role="alert" className="space-y-1 text-red-700 dark:text-red-300">
          {problems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </div>
      ) : orders.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-400">{filtered ? "No orders match these filters." : "No orders yet."}</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Orders found">
          {orders.map((order) => (
            <li key={order.id} className="flex flex-col gap-2 py-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <Link to={`/admin/orders/${order.id}`} className="font-semibold text-brand-700 hover:underline dark:text-brand-300">
                  <span className="font-mono">{order.number}</span> · {order.title}
                </Link>
                <p className="break-all text-sm text-slate-600 dark:text-slate-400">
                  {order.amount} · {formatDay(order.createdAt)} · {order.buyer ? `${order.buyer.name} <${order.buyer.email}>` : "account deleted"}
                </p>
              </div>
              <OrderStatusBadge order={order} />
            </li>
          ))}
        </ul>
      )}
      <OlderLink path="/admin/orders" filter={form} next={next}>Older orders</OlderLink>
    </div>
  );
}
