// Large server-rendered HTML (a lesson's body) sent once. Loader data is serialised into the page
// for hydration, so HTML in it reached the browser twice, the second time escaped inside a script.
// For a document the loader hands the HTML to the render instead and its data says only that the
// HTML is on the page; hydration takes it from there. Data requests (client navigation) carry it.
import { useState } from "react";
import { useDocumentValues } from "./document-context.ts";

/** What loader data holds in place of the HTML: the HTML itself, or word that the page has it. */
export type HtmlOnce = { html: string } | { onPage: true };

/** In a loader, given the request's `documentRequest` context: the HTML for loader data, or, for a document, a note that the render has it. */
export function htmlOnce(document: { dataRequest: boolean; serverHtml: Map<string, string> }, id: string, html: string): HtmlOnce {
  if (document.dataRequest) return { html };
  document.serverHtml.set(id, html);
  return { onPage: true };
}

/**
 * In a component: the HTML to render in the element with this id. On the server it comes from the
 * loader; while hydrating, from that element as the server sent it.
 */
export function useHtmlOnce(id: string, value: HtmlOnce): string {
  const { serverHtml } = useDocumentValues();
  const [onPage] = useState(() => ("html" in value ? "" : (serverHtml?.get(id) ?? globalThis.document?.getElementById(id)?.innerHTML ?? "")));
  return "html" in value ? value.html : onPage;
}
