import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { appServices, documentRequest } from "../server/context.ts";
import { DocumentContext } from "./lib/document-context.ts";

export const streamTimeout = 5_000;

const preloadTag = Buffer.from('<link rel="modulepreload"');
const tagEnd = Buffer.from("/>");
const moduleScriptTag = Buffer.from(' type="module" async="">');
const scriptStart = Buffer.from("<script");
const scriptEnd = Buffer.from("</script>");

/** JSON that may stand inside a script element: no `<` to end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll("<", "\\u003c");

/**
 * Runs in the browser, inlined at the end of the body: adds the page's module preloads and its
 * module script once the browser reports the first contentful paint (at once in a tab that is not
 * shown, which paints nothing; on the frame after the next paint in a browser that reports none;
 * after three seconds whatever happens, so no page is left without its scripts).
 */
function loadAfterFirstPaint(nonce: string, preloads: string[], code: string) {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of preloads) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      link.nonce = nonce;
      document.head.append(link);
    }
    const script = document.createElement("script");
    script.type = "module";
    script.nonce = nonce;
    script.textContent = code;
    document.body.append(script);
  };
  if (document.visibilityState === "hidden") {
    start();
  } else {
    setTimeout(start, 3000);
    if (PerformanceObserver.supportedEntryTypes?.includes("paint")) {
      new PerformanceObserver((list) => {
        if (list.getEntriesByName("first-contentful-paint").length > 0) start();
      }).observe({ type: "paint", buffered: true });
    } else {
      requestAnimationFrame(() => setTimeout(start));
    }
  }
}
const loaderSource = loadAfterFirstPaint.toString();

/**
 * The page's scripts are fetched and run once it has painted: it is whole and usable before any
 * script runs (links and forms work without them), so they must not compete with its HTML and
 * images for the connection, and Lighthouse counted the modules preloaded from the head in the
 * time to the largest paint (2.1–2.3 s on its mobile profile; 0.9 s without). React Router
 * preloads every module from the head and starts them with a module script at the end of the
 * body: both are taken out, and `loadAfterFirstPaint` adds the same preloads and the same script.
 * Done on the bytes: decoding and re-encoding the page cost more than the search.
 */
function scriptsAfterFirstPaint(html: Buffer<ArrayBuffer>, nonce: string): Buffer<ArrayBuffer> {
  const moduleTag = html.lastIndexOf(moduleScriptTag);
  const moduleStart = moduleTag === -1 ? -1 : html.lastIndexOf(scriptStart, moduleTag);
  const moduleEnd = moduleTag === -1 ? -1 : html.indexOf(scriptEnd, moduleTag);
  if (moduleStart === -1 || moduleEnd === -1) return html;
  const parts: Buffer[] = [];
  const preloads: string[] = [];
  let from = 0;
  for (let at = html.indexOf(preloadTag); at !== -1 && at < moduleStart; at = html.indexOf(preloadTag, from)) {
    const end = html.indexOf(tagEnd, at) + tagEnd.length;
    const href = /href="([^"]+)"/.exec(html.toString("utf8", at, end))?.[1];
    if (href) preloads.push(href);
    parts.push(html.subarray(from, at));
    from = end;
  }
  const code = html.toString("utf8", moduleTag + moduleScriptTag.length, moduleEnd);
  parts.push(
    html.subarray(from, moduleStart),
    Buffer.from(`<script nonce="${nonce}">(${loaderSource})(${scriptJson(nonce)},${scriptJson(preloads)},${scriptJson(code)})</script>`),
    html.subarray(moduleEnd),
  );
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
        const whole = Buffer.concat(chunks);
        // The dev server's own scripts (Vite's client, hot reloading) are left as they come.
        const rendered = nonce === undefined ? whole : scriptsAfterFirstPaint(whole, nonce);
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
