import type { MetaDescriptor } from "react-router";

export interface RootData {
  origin: string;
  year: number;
  viewer: { name: string; email: string; image: string | null } | null;
  /** A message this page says once ("E-mail verified"), else null. */
  notice: string | null;
  site: { name: string; description: string; email: string; phone: string; address: string; legalName: string };
  /** GA4 measurement id when page views are measured (after consent); null when analytics is off. */
  analyticsId: string | null;
  /** "linked" when a signed-in browser holds the stylesheet already (see stylesheet-cache.ts). */
  stylesheet: "inline" | "linked";
}

interface MetaArgsLike {
  location: { pathname: string };
  matches: ({ id: string; loaderData?: unknown } | undefined)[];
}

export function rootData(matches: MetaArgsLike["matches"]): RootData | undefined {
  return matches.find((m) => m?.id === "root")?.loaderData as RootData | undefined;
}

/** Title, description, canonical URL and Open Graph tags for one page. */
export function pageMeta(
  args: MetaArgsLike,
  page: { title: string; description: string; type?: "website" | "article" },
): MetaDescriptor[] {
  const root = rootData(args.matches);
  const siteName = root?.site.name ?? "Academy";
  const title = page.title === siteName ? siteName : `${page.title} | ${siteName}`;
  const url = `${root?.origin ?? ""}${args.location.pathname}`;
  return [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: siteName },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:image", content: `${root?.origin ?? ""}/og-image.jpg` },
    { name: "twitter:card", content: "summary_large_image" },
  ];
}
