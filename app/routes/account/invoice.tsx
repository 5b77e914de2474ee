import { renderToStaticMarkup } from "react-dom/server";
import stylesheetHref from "../../app.css?url";
import { apiErrorBody, checkBearer } from "../../../server/api/index.ts";
import { appServices, documentRequest, viewerContext } from "../../../server/context.ts";
import { attempt } from "../../../server/errors.ts";
import { ReceiptDocument } from "../../components/receipt-document.tsx";
import type { Route } from "./+types/invoice";
import { receiptView } from "./receipt.server.ts";

const json = (status: number, message: string, headers: Record<string, string> = {}) => Response.json(apiErrorBody(status, message), { status, headers: { ...headers, "Cache-Control": "no-store" } });

/**
 * The tax invoice of a paid order as one self-contained HTML file (its stylesheet inlined), for
 * `academy receipts <orderId> --html|--pdf`: for the signed-in browser, or for a CLI token or an
 * API key with the read scope (counted against its rate limit).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const services = context.get(appServices);
  const viewer = context.get(viewerContext);
  let buyer = viewer && { id: viewer.id };
  let rateLimit: Record<string, string> = {};
  if (!buyer) {
    const checked = await checkBearer(request.headers.get("authorization"), ["read"], services.authorizeApi);
    if (!checked.ok) return json(checked.status, checked.message, checked.headers);
    buyer = { id: checked.caller.userId };
    rateLimit = checked.headers;
  }
  const found = await attempt(() => receiptView(services.db, services.catalog, buyer, params.orderId));
  if (!found.ok) return json(found.status, found.message, rateLimit);
  if (!found.value.paid) return json(404, "This order has not been paid, so it has no receipt.", rateLimit);
  const css = context.get(documentRequest).inlineStylesheet(stylesheetHref) ?? "";
  const title = renderToStaticMarkup(<title>{`Tax invoice ${found.value.number}`}</title>);
  const html = `<!doctype html><html lang="en-IN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${title}<style>${css}</style></head><body class="bg-white p-6">${renderToStaticMarkup(<ReceiptDocument r={found.value} />)}</body></html>`;
  return new Response(html, {
    headers: {
      ...rateLimit,
      "Content-Type": "text/html; charset=utf-8",
      "Content-Disposition": `inline; filename="invoice-${found.value.number}.html"`,
      "Cache-Control": "private, no-store",
    },
  });
}
