import type { Hono } from "hono";
import { escapeHtml } from "../escape-html.ts";
import type { Catalog } from "../catalog/index.ts";
import { coursesOnSale, policySlugs } from "../catalog/index.ts";
import type { HttpDeps } from "./deps.ts";
import type { HttpEnv } from "./env.ts";

/** Every public page a search engine should know about: the courses are those on sale. */
function publicPaths(catalog: Pick<Catalog, "courses" | "services" | "help">): string[] {
  return [
    "/",
    "/courses",
    ...catalog.courses.flatMap((c) => [
      `/course/${c.id}`,
      `/course/${c.id}/feedback`,
      // Free previews are open to everyone.
      ...c.modules.flatMap((m) => m.lessons.filter((l) => l.preview).map((l) => `/courses/${c.id}/submodule/${l.id}`)),
    ]),
    "/services",
    ...catalog.services.map((s) => `/service/${s.id}`),
    "/team",
    "/portfolio",
    "/help",
    ...catalog.help.map((section) => `/help/${section.id}`),
    "/api-tools",
    ...policySlugs.map((slug) => `/${slug}`),
  ];
}

function sitemapXml(catalog: Pick<Catalog, "courses" | "services" | "help">, publicUrl: string): string {
  const urls = publicPaths(catalog)
    .map((p) => `  <url><loc>${escapeHtml(publicUrl + p)}</loc></url>`)
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export function robotsTxt(publicUrl: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /account",
    "Disallow: /api/",
    "Disallow: /profile",
    "Disallow: /settings",
    "Disallow: /notes",
    "Disallow: /dev/",
    "Disallow: /sandbox/",
    "Disallow: /courses/*/confirm",
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

/** /robots.txt and /sitemap.xml, for search engines. */
export function mountSeo(app: Hono<HttpEnv>, deps: HttpDeps): void {
  app.get("/robots.txt", (c) => c.text(robotsTxt(deps.publicUrl)));
  app.get("/sitemap.xml", async (c) => {
    const catalog = deps.catalog();
    const onSale = await coursesOnSale(deps.database.db);
    c.header("Content-Type", "application/xml; charset=utf-8");
    return c.body(sitemapXml({ courses: onSale.of(catalog.courses), services: catalog.services, help: catalog.help }, deps.publicUrl));
  });
}
