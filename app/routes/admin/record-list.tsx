import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatDay } from "../../../common/format.ts";
import type { OrderStatus, RefundStatus } from "../../../common/order-statuses.ts";
import { OrderStatusBadge } from "../../components/status-badge.tsx";
import { Section } from "./page-heading.tsx";

/** A titled list of a record's related records (a customer's orders, a website's periods), each with a line of detail and its status. */
export function RecordList({ title, empty, records }: { title: string; empty: string; records: { id: string; title: ReactNode; detail: string; status?: ReactNode }[] }) {
  return (
    <Section id={title.toLowerCase().replaceAll(" ", "-")} title={title}>
      {records.length === 0 ? (
        <p className="text-slate-600 dark:text-slate-400">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label={title}>
          {records.map((record) => (
            <li key={record.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <p className="font-medium text-slate-950 dark:text-white">{record.title}</p>
                <p className="text-sm text-slate-600 dark:text-slate-400">{record.detail}</p>
              </div>
              {record.status}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

/** A list's orders (number, title, amount, dates, status), each linking to its page when the staff member may open orders. */
export function OrderRecords({
  orders,
  mayOpen,
}: {
  orders: { id: string; number: string; title: string; amount: string; status: OrderStatus; refund: { status: RefundStatus } | null; createdAt: string; paidAt?: string | null }[];
  mayOpen: boolean;
}) {
  return (
    <RecordList
      title="Orders"
      empty="No orders yet."
      records={orders.map((order) => {
        const name = (
          <>
            <span className="font-mono text-sm">{order.number}</span> · {order.title}
          </>
        );
        return {
          id: order.id,
          title: mayOpen ? (
            <Link to={`/admin/orders/${order.id}`} className="text-brand-700 hover:underline dark:text-brand-300">
              {name}
            </Link>
          ) : (
            name
          ),
          detail: `${order.amount} · ordered ${formatDay(order.createdAt)}${order.paidAt ? `, paid ${formatDay(order.paidAt)}` : ""}`,
          status: <OrderStatusBadge order={order} />,
        };
      })}
    />
  );
}
