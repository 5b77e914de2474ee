import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import {
  Links,
  Meta,
  Outlet,
  redirect,
  replace,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import { accessRedirect } from "../server/auth/index.ts";
import { appServices, noticeContext, viewerContext } from "../server/context.ts";
import { clearNoticeCookie, notices, readNotice } from "../server/notice.ts";
import type { Route } from "./+types/root";
import stylesheetHref from "./app.css?url";
import { NavigationProgress } from "./components/navigation-progress.tsx";
import { NoticeBanner } from "./components/notice-banner.tsx";
import { RouteError } from "./components/not-found.tsx";
import { SiteFooter } from "./components/site-footer.tsx";
import { SiteHeader } from "./components/site-header.tsx";
import { useDocumentValues } from "./lib/document-context.ts";
import type { RootData } from "./lib/seo.ts";
import { cacheStylesheet, hasStylesheetCached } from "./lib/stylesheet-cache.ts";
import { forgetKeptLessons } from "./lib/offline.ts";
import { themeBootstrapScript } from "./lib/theme.ts";

/** Who is signed in, and the redirect rules of spec §4, before any page renders. */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, url, context }, next) => {
    const { pageSession, publicUrl } = context.get(appServices);
    const session = await pageSession(request.headers);
    const viewer = session
      ? {
          id: session.user.id,
          name: session.user.name,
          email: session.user.email,
          image: session.user.image ?? null,
          emailVerified: session.user.emailVerified,
          sessionId: session.session.id,
        }
      : null;
    context.set(viewerContext, viewer);
    const target = accessRedirect(url.pathname, url.search, viewer);
    if (target) throw target.replace ? replace(target.to) : redirect(target.to);
    // A notice is said once: this page shows it and clears its cookie.
    const notice = readNotice(request.headers.get("cookie"));
    if (notice) context.set(noticeContext, notice);
    const response = await next();
    if (notice) response.headers.append("Set-Cookie", clearNoticeCookie(publicUrl));
    // What a signed-in person sees is theirs: no shared cache stores it, and the service worker keeps only such lessons.
    if (viewer && !response.headers.has("cache-control")) response.headers.set("Cache-Control", "private, no-cache");
    return response;
  },
];

export function loader({ request, context }: Route.LoaderArgs): RootData {
  const viewer = context.get(viewerContext);
  const noticeKey = context.get(noticeContext);
  const { catalog, publicUrl, analyticsId } = context.get(appServices);
  const { site } = catalog;
  const a = site.address;
  return {
    origin: publicUrl,
    year: new Date().getFullYear(),
    viewer: viewer && { name: viewer.name, email: viewer.email, image: viewer.image },
    notice: noticeKey ? notices[noticeKey] : null,
    site: {
      name: site.name,
      legalName: site.legalName,
      description: site.description,
      email: site.email,
      phone: site.phone,
      address: [a.line1, a.line2, `${a.city} ${a.postalCode}`, a.state].filter(Boolean).join(", "),
    },
    analyticsId,
    stylesheet: viewer && hasStylesheetCached(request.headers.get("cookie"), stylesheetHref) ? "linked" : "inline",
  };
}

/**
 * The inlined stylesheet as the browser first got it. React mounts the layout afresh when an error
 * page replaces a page in the browser, and the browser bundle has no stylesheet text of its own (nor
 * the CSP nonce, which only the server's <style> carries): without these that page had no styles.
 */
const firstRender: { done: boolean; css?: string; nonce?: string } = { done: false };

/**
 * In production the stylesheet is inlined into the document (no render-blocking request); the
 * browser bundle renders an empty <style> and hydration leaves the server's text in place. A
 * signed-in browser that holds the file gets a link instead (stylesheet-cache.ts); the first
 * render's choice is kept, since swapping one for the other would flash an unstyled page.
 */
function Stylesheet({ linked, signedIn }: { linked: boolean; signedIn: boolean }) {
  const { nonce, inlineStylesheet } = useDocumentValues();
  // The text is asked for only when it is inlined: the server compresses a page by the stylesheet it handed out (server/http/documents.ts).
  const [link] = useState(linked || (firstRender.done && firstRender.css === undefined));
  const css = link ? undefined : (inlineStylesheet?.(stylesheetHref) ?? firstRender.css);
  const style = useRef<HTMLStyleElement>(null);
  useEffect(() => {
    if (!firstRender.done && style.current?.textContent) {
      firstRender.css = style.current.textContent;
      firstRender.nonce = style.current.nonce;
    }
    firstRender.done = true;
    if (!link && signedIn && !import.meta.env.DEV) cacheStylesheet(stylesheetHref);
  }, [link, signedIn]);
  if (import.meta.env.DEV || link) return <link rel="stylesheet" href={stylesheetHref} />;
  return <style ref={style} nonce={nonce ?? firstRender.nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: css ?? "" }} />;
}

/** The analytics consent banner: its code (and the consent store's) is fetched only on a site that measures page views. */
const AnalyticsConsent = lazy(() => import("./components/analytics-consent.tsx").then((module) => ({ default: module.AnalyticsConsent })));

/** A route's `handle`: `focused` pages (the lesson player) bring their own slim header and no site footer. */
export interface RouteHandle {
  focused?: boolean;
}

/** In the browser, the site data last loaded: an error page whose request failed whole still has its header and footer. */
let lastRootData: RootData | undefined;

export function Layout({ children }: { children: ReactNode }) {
  const { nonce } = useDocumentValues();
  const loaded = useRouteLoaderData<typeof loader>("root");
  // Effects run only in the browser, so the server never shares one request's data with another.
  const [remembered] = useState(() => lastRootData);
  useEffect(() => {
    if (loaded) lastRootData = loaded;
    if (loaded && !loaded.viewer) forgetKeptLessons();
  }, [loaded]);
  const data = loaded ?? remembered;
  // Only a page that loaded: an error shown in its place gets the whole site around it.
  const focused = useMatches().some((m) => (m.handle as RouteHandle | undefined)?.focused === true && m.loaderData !== undefined);
  return (
    <html lang="en-IN" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: themeBootstrapScript }} />
        <Stylesheet linked={data?.stylesheet === "linked"} signedIn={Boolean(data?.viewer)} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        {focused ? (
          children
        ) : (
          <>
            <SiteHeader siteName={data?.site.name ?? "Academy"} viewer={data?.viewer ?? null} />
            <main id="main" className="flex-1">
              {data?.notice && <NoticeBanner key={data.notice} message={data.notice} />}
              {children}
            </main>
            {data && <SiteFooter site={data.site} year={data.year} cookieSettings={data.analyticsId !== null} />}
          </>
        )}
        {data?.analyticsId && (
          <Suspense fallback={null}>
            <AnalyticsConsent measurementId={data.analyticsId} />
          </Suspense>
        )}
        <NavigationProgress />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** Every error page, the HTTP layer's own included (server/http/documents.ts), inside the site's header and footer. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteError error={error} />;
}
