import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { appServices, documentRequest } from "../server/context.ts";
import { DocumentContext } from "./lib/document-context.ts";

export const streamTimeout = 5_000;

const preloadTag = Buffer.from('<link rel="modulepreload"');
const lowPriority = Buffer.from(' fetchpriority="low"');

/**
 * Route modules are fetched at low priority: the page is whole and usable before any script runs,
 * so the scripts must not compete with it (at React Router's default, high, Lighthouse counted them
 * as render-blocking: first paint 1.9 s → 0.9 s on its mobile profile). Done on the bytes: decoding
 * and re-encoding the page cost more than the search.
 */
function lowPriorityPreloads(html: Buffer): Buffer<ArrayBuffer> {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = html.indexOf(preloadTag); at !== -1; at = html.indexOf(preloadTag, at + preloadTag.length)) {
    parts.push(html.subarray(from, at + preloadTag.length), lowPriority);
    from = at + preloadTag.length;
  }
  parts.push(html.subarray(from));
  return Buffer.concat(parts);
}

/**
 * The rendered page as a stream that hands over its bytes only when read. Given the bytes themselves,
 * the Fetch API copies them into a new buffer as the Response is made, and React Router makes it (its
 * middleware looks at the body), though the HTTP layer sends `DocumentRequest.rendered` and never reads
 * the body: 0.2–0.7 ms of the course page's 7 ms (issue 30).
 */
function bodyOf(bytes: Buffer<ArrayBuffer>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/**
 * A loader's, action's or render's error goes to the request's log line (JSON, with its request id,
 * route and user), not to the console, where React Router would print it whole, query values and all.
 * A thrown Response (a redirect, a 404) is how a route answers, not a failure.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  const failure: unknown = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : error;
  if (request.signal.aborted || failure === undefined) return;
  (context as RouterContextProvider).get(appServices).reportError(failure);
};

/**
 * Renders the whole document before answering: no page suspends on deferred data, so the shell is
 * the page, and one buffer is cheaper to send and compress than a stream of React's small chunks.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const page = loadContext.get(documentRequest);
  const { inlineStylesheet, serverHtml, ...values } = page;
  // The dev server's CSP has no nonce (Vite injects unnonced scripts); a nonce there only upsets hydration.
  const nonce = import.meta.env.DEV ? undefined : values.nonce;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000);
    const chunks: Buffer[] = [];
    const body = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeoutId);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        const rendered = lowPriorityPreloads(Buffer.concat(chunks));
        page.rendered = rendered;
        resolve(new Response(bodyOf(rendered), { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });

    const { pipe, abort } = renderToPipeableStream(
      <DocumentContext value={{ nonce, inlineStylesheet, serverHtml }}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </DocumentContext>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell reject and are logged by React Router; later ones only surface here.
          if (shellRendered) loadContext.get(appServices).reportError(error);
        },
      },
    );
  });
}
