// Signed-in pages leave the stylesheet out once the browser holds it. Every page inlines it at
// first, so a first visit paints without waiting for a stylesheet; on a signed-in page the browser
// then fetches the stylesheet file into its cache, at low priority, and records its version in a
// cookie, and from then on the server links that file instead of sending 65 KB more with every
// page. Anonymous pages always inline it: they are cached and shared by everyone.

const cookieName = "academy_css";
const maxAgeSeconds = 365 * 24 * 60 * 60;

/** A stylesheet's version: its file name, which carries a hash of its content. */
const version = (href: string) => href.slice(href.lastIndexOf("/") + 1);

/** The cookie, as `name=value`, of a browser that holds this stylesheet. */
export const stylesheetCookie = (href: string) => `${cookieName}=${version(href)}`;

/** Whether the Cookie header says the browser has this very stylesheet cached. */
export function hasStylesheetCached(cookieHeader: string | null, href: string): boolean {
  return cookieHeader !== null && cookieHeader.split(/;\s*/).includes(stylesheetCookie(href));
}

/** Fetches the stylesheet into the browser's cache, then says so in the cookie. */
export function cacheStylesheet(href: string): void {
  if (hasStylesheetCached(document.cookie, href)) return;
  const link = document.createElement("link");
  link.rel = "prefetch";
  link.as = "style";
  link.href = href;
  link.addEventListener(
    "load",
    () => {
      const secure = location.protocol === "https:" ? "; Secure" : "";
      document.cookie = `${stylesheetCookie(href)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure}`;
      link.remove();
    },
    { once: true },
  );
  document.head.append(link);
}
