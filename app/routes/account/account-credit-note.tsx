import { data, Link } from "react-router";
import { appServices, requireViewer } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { ArrowLeftIcon } from "../../components/icons.tsx";
import { Container } from "../../components/page-intro.tsx";
import { ReceiptDocument } from "../../components/receipt-document.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/account-credit-note";
import { receiptView } from "./receipt.server.ts";
import { Button } from "../../components/ui/button.tsx";

/** The GST credit note of a refunded order: the buyer's own only, and only once the refund is processed. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context);
  const { catalog, db } = context.get(appServices);
  const result = await attempt(() => receiptView(db, catalog, viewer, params.orderId));
  if (!result.ok) throw data(result.status === 404 ? null : result.message, { status: result.status });
  if (!result.value.creditNote) throw data(null, { status: 404 });
  return result.value;
}

export const meta: Route.MetaFunction = (args) => {
  const note = args.loaderData?.creditNote;
  if (!args.loaderData || !note) return [];
  return [
    ...pageMeta(args, { title: `Credit note ${note.number}`, description: `GST credit note against invoice ${args.loaderData.number}.` }),
    { name: "robots", content: "noindex" },
  ];
};

export default function CreditNotePage({ loaderData: r }: Route.ComponentProps) {
  return (
    <Container className="max-w-4xl py-8 sm:py-12 print:max-w-none print:p-0">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link
          to={`/account/orders/${r.id}/receipt`}
          className="inline-flex items-center gap-1.5 text-sm font-medium text-slate-600 hover:text-slate-950 dark:text-slate-400 dark:hover:text-white"
        >
          <ArrowLeftIcon className="size-4" />
          The invoice it corrects
        </Link>
        <Button type="button" onClick={() => window.print()}>
          Print or save as PDF
        </Button>
      </div>
      <ReceiptDocument r={r} asCreditNote />
    </Container>
  );
}
