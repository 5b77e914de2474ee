import { data, Link } from "react-router";
import { appServices, requireViewer } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { ArrowLeftIcon } from "../../components/icons.tsx";
import { Container } from "../../components/page-intro.tsx";
import { ReceiptDocument } from "../../components/receipt-document.tsx";
import { formatDay, formatPaise } from "../../../common/format.ts";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/account-receipt";
import { receiptView } from "./receipt.server.ts";
import { Button, ButtonLink } from "../../components/ui/button.tsx";

export async function loader({ params, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { catalog, db } = context.get(appServices);
  const result = await attempt(() => receiptView(db, catalog, viewer, params.orderId));
  // Another user's order is "not found", so the root shows its not-found page.
  if (!result.ok) throw data(result.status === 404 ? null : result.message, { status: result.status });
  return result.value;
}

export const meta: Route.MetaFunction = (args) => {
  if (!args.loaderData) return [];
  return [
    ...pageMeta(args, { title: `Receipt ${args.loaderData.number}`, description: `Tax invoice for order ${args.loaderData.number}.` }),
    { name: "robots", content: "noindex" },
  ];
};

function BackToOrders() {
  return (
    <Link
      to="/account/orders"
      className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-slate-950 dark:text-slate-400 dark:hover:text-white"
    >
      <ArrowLeftIcon className="size-4" />
      Back to your orders
    </Link>
  );
}

export default function ReceiptPage({ loaderData: r }: Route.ComponentProps) {
  if (!r.paid) {
    return (
      <Container className="max-w-3xl py-12 sm:py-16">
        <BackToOrders />
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-slate-950 dark:text-white">No receipt for <span className="whitespace-nowrap">{r.number}</span>
        </h1>
        <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">This order has not been paid, so there is no receipt.</p>
        {r.status === "created" && (
          <ButtonLink
            to={r.payPath}
            className="mt-6 inline-block"
          >
            Complete the payment
          </ButtonLink>
        )}
      </Container>
    );
  }

  return (
    <Container className="max-w-4xl py-8 sm:py-12 print:max-w-none print:p-0">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <BackToOrders />
        <Button
          type="button"
          onClick={() => window.print()}
        >
          Print or save as PDF
        </Button>
      </div>

      {r.creditNote && (
        <p role="note" className="mt-6 rounded-lg border border-brand-200 bg-brand-50 px-4 py-3 text-sm text-brand-900 print:hidden dark:border-brand-800 dark:bg-slate-800 dark:text-brand-100">
          {r.creditNote.whole ? "This order was refunded" : `${formatPaise(r.creditNote.amount)} of this order was refunded`} on {formatDay(r.creditNote.issuedAt)}. The invoice stays as it was issued; credit note {r.creditNote.number} corrects it.{" "}
          <Link to={`/account/orders/${r.id}/credit-note`} className="font-semibold underline underline-offset-2">
            View the credit note
          </Link>
        </p>
      )}
      <ReceiptDocument r={r} />
    </Container>
  );
}
