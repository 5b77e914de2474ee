import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { Container, PageIntro } from "../../components/page-intro.tsx";
import { pageMeta } from "../../lib/seo.ts";
import type { Route } from "./+types/api-reference";
import { cardClass } from "../../components/ui/card.tsx";
import { apiReferenceModule } from "../../../common/api-reference.ts";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "API reference", description: "Every operation of the Academy API, its parameters and answers, with a console to try them." });

/** What Scalar's module exports. */
interface ScalarModule {
  createApiReference(target: HTMLElement, configuration: Record<string, unknown>): { destroy?(): void };
}

function labelCopyButtons(root: HTMLElement): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>("button.scalar-code-copy:not([aria-label])")) button.setAttribute("aria-label", "Copy the example");
}

/** The style elements Scalar put in the head (its stylesheet, its toasts'), kept aside while the page is away. */
const scalarHeadStyles: HTMLStyleElement[] = [];

/**
 * Gives the page's nonce to every style element made while the reference is shown: Scalar's bundle
 * adds its stylesheet, its toasts' and its theme as style elements, most with no way to pass a
 * nonce, and the CSP (style-src 'self' 'nonce-…') refuses them otherwise. Its stylesheet reads the
 * nonce from a csp-nonce meta element, there only until the module has run. Returns the undoing.
 */
function nonceScalarStyles(nonce: string): () => void {
  const create = document.createElement;
  const made: HTMLStyleElement[] = [];
  document.createElement = function (this: Document, tagName: string, options?: ElementCreationOptions) {
    const element = create.call(this, tagName, options);
    if (element instanceof HTMLStyleElement) {
      element.nonce = nonce;
      made.push(element);
    }
    return element;
  } as typeof document.createElement;
  document.head.append(...scalarHeadStyles);
  return () => {
    document.createElement = create;
    const inHead = [...scalarHeadStyles, ...made].filter((style) => style.parentElement === document.head);
    for (const style of inHead) style.remove();
    scalarHeadStyles.splice(0, scalarHeadStyles.length, ...inHead);
  };
}

/**
 * The interactive reference (Scalar), rendered in the browser from /api/v1/openapi.json. The
 * module comes from this origin, fetched by this page alone (its parts as they are needed); its style elements carry the page's
 * CSP nonce (nonceScalarStyles).
 */
export default function ApiReference() {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  useEffect(() => {
    const target = host.current;
    if (!target) return;
    let app: { destroy?(): void } | undefined;
    // Scalar draws each example's copy button as an icon alone: give it a name a screen reader can say.
    const nameCopyButtons = new MutationObserver(() => labelCopyButtons(target));
    // The theme the page opened in (root.tsx's bootstrap script sets the class).
    const dark = document.documentElement.classList.contains("dark");
    const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce || undefined;
    const undoNonces = nonce ? nonceScalarStyles(nonce) : () => {};
    const start = (scalar: ScalarModule) => {
      target.replaceChildren();
      app = scalar.createApiReference(target, {
        url: "/api/v1/openapi.json",
        nonce,
        withDefaultFonts: false,
        hideDarkModeToggle: true,
        forceDarkModeState: dark ? "dark" : "light",
        telemetry: false,
        showDeveloperTools: "never",
        agent: { disabled: true },
        mcp: { disabled: true },
      });
      setState("ready");
      nameCopyButtons.observe(target, { childList: true, subtree: true });
      labelCopyButtons(target);
    };
    // Scalar's module reads the nonce for its stylesheet from a csp-nonce meta element when it first runs.
    const nonceMeta = Object.assign(document.createElement("meta"), { content: nonce ?? "" });
    nonceMeta.setAttribute("property", "csp-nonce");
    if (nonce) document.head.append(nonceMeta);
    let cancelled = false;
    (import(/* @vite-ignore */ apiReferenceModule.entry) as Promise<ScalarModule>)
      .then(
        (scalar) => !cancelled && start(scalar),
        () => !cancelled && setState("failed"),
      )
      .finally(() => nonceMeta.remove());
    return () => {
      cancelled = true;
      nameCopyButtons.disconnect();
      app?.destroy?.();
      undoNonces();
    };
  }, []);

  return (
    <Container className="py-10">
      <PageIntro eyebrow="For developers" title="API reference" lead="Every operation of /api/v1, its parameters and answers. Send a request with your API key from the console on each operation." />
      <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
        <Link to="/api-tools" className="font-semibold text-brand-700 underline dark:text-brand-300">
          Back to API and CLI
        </Link>{" "}
        · make a key there, or read the raw{" "}
        <a href="/api/v1/openapi.json" className="font-semibold text-brand-700 underline dark:text-brand-300">
          OpenAPI document
        </a>
        .
      </p>
      {state === "loading" && (
        <p role="status" className="mt-8 text-slate-600 dark:text-slate-400">
          Loading the reference…
        </p>
      )}
      {state === "failed" && (
        <p role="alert" className="mt-8 text-red-700 dark:text-red-300">
          The interactive reference could not load. The operations are listed on the API and CLI page, and the OpenAPI document has all of them.
        </p>
      )}
      <noscript>
        <p className="mt-8">The interactive reference needs JavaScript. Every operation is listed on the API and CLI page.</p>
      </noscript>
      <div ref={host} className={cardClass({ className: "mt-8 overflow-hidden" })} />
    </Container>
  );
}
