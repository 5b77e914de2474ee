import { renderToStaticMarkup } from "react-dom/server";
import stylesheetHref from "../app.css?url";
import { appServices, documentRequest, viewerContext } from "../../server/context.ts";
import { attempt } from "../../server/errors.ts";
import { ReceiptDocument } from "../components/receipt-document.tsx";
import { escapeHtml } from "../../server/escape-html.ts";
import type { Route } from "./+types/invoice";
import { receiptView } from "./receipt.server.ts";

const json = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status, headers: { "Cache-Control": "no-store" } });

/**
 * The tax invoice of a paid order as one self-contained HTML file (its stylesheet inlined), for
 * `academy receipts <orderId> --html|--pdf`: for the signed-in browser, or for a CLI token or an
 * API key with the read scope (counted against its rate limit).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const services = context.get(appServices);
  const viewer = context.get(viewerContext);
  let buyer = viewer && { id: viewer.id, name: viewer.name, email: viewer.email };
  if (!buyer) {
    const token = /^Bearer ([\w.~+/-]+=*)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    const authorized = token ? await services.authorizeApi(token) : null;
    if (!authorized) return json(401, "unauthorized", "Sign in first: run academy login, or send a token as Authorization: Bearer <token>.");
    if (!authorized.limit.allowed) return json(429, "rate_limited", authorized.limit.refusal);
    if (!authorized.caller.scopes.includes("read")) return json(403, "forbidden", 'This key may not do that: it needs the "read" scope.');
    buyer = { id: authorized.caller.userId, name: authorized.caller.name, email: authorized.caller.email };
  }
  const found = await attempt(() => receiptView(services.db, services.catalog, buyer, params.orderId));
  if (!found.ok) return json(found.status, found.status === 404 ? "not_found" : "error", found.message);
  if (!found.value.paid) return json(404, "not_found", "This order has not been paid, so it has no receipt.");
  const css = context.get(documentRequest).inlineStylesheet(stylesheetHref) ?? "";
  const html = `<!doctype html><html lang="en-IN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Tax invoice ${escapeHtml(found.value.number)}</title><style>${css}</style></head><body class="bg-white p-6">${renderToStaticMarkup(<ReceiptDocument r={found.value} />)}</body></html>`;
  return new Response(html, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Disposition": `inline; filename="invoice-${found.value.number}.html"`,
      "Cache-Control": "private, no-store",
    },
  });
}
