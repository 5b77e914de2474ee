import { useRef } from "react";
import type { RootData } from "../lib/seo.ts";
import { CookieSettingsButton } from "./cookie-settings-button.tsx";
import { useClientLinks } from "../lib/use-client-links.ts";

const columns = [
  {
    title: "Learn",
    links: [
      { to: "/courses", label: "All courses" },
      { to: "/course/webdevfrontendcourse", label: "Front-End Web Development" },
      { to: "/help", label: "Help centre" },
      { to: "/api-tools", label: "API and CLI" },
    ],
  },
  {
    title: "Company",
    links: [
      { to: "/services", label: "Services" },
      { to: "/portfolio", label: "Portfolio" },
      { to: "/team", label: "Team" },
    ],
  },
  {
    title: "Policies",
    links: [
      { to: "/privacy", label: "Privacy policy" },
      { to: "/terms", label: "Terms of service" },
      { to: "/shipping", label: "Shipping policy" },
      { to: "/cancellation-refund", label: "Cancellation & refunds" },
      { to: "/cookies", label: "Cookie policy" },
    ],
  },
];

/** `cookieSettings`: offer to change the analytics choice (only when there is one to make). */
export function SiteFooter({ site, year, cookieSettings }: { site: RootData["site"]; year: number; cookieSettings: boolean }) {
  // Plain anchors, made to navigate within the app: a <Link> costs several times more to render, and
  // the footer is on every page. data-discover has React Router learn their routes ahead, as a <Link>'s.
  const footer = useRef<HTMLElement>(null);
  useClientLinks(footer);
  return (
    <footer ref={footer} className="border-t border-slate-200 print:hidden bg-slate-50 dark:border-slate-800 dark:bg-slate-900/60">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div>
          <p className="text-lg font-bold text-slate-950 dark:text-white">{site.name}</p>
          <p className="mt-2 text-sm leading-6 text-slate-600 dark:text-slate-400">{site.description}</p>
          <address className="mt-4 text-sm not-italic leading-6 text-slate-600 dark:text-slate-400">
            {site.address}
            <br />
            <a className="underline underline-offset-2 hover:text-slate-900 dark:hover:text-white" href={`mailto:${site.email}`}>
              {site.email}
            </a>
            <br />
            <a className="hover:text-slate-900 dark:hover:text-white" href={`tel:${site.phone.replace(/\s+/g, "")}`}>
              {site.phone}
            </a>
          </address>
        </div>
        {columns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="text-sm font-semibold text-slate-950 dark:text-white">{column.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {column.links.map((link) => (
                <li key={link.to}>
                  <a
                    href={link.to}
                    data-discover="true"
                    className="text-slate-600 hover:text-slate-950 hover:underline dark:text-slate-400 dark:hover:text-white"
                  >
                    {link.label}
                  </a>
                </li>
              ))}
              {cookieSettings && column.title === "Policies" && (
                <li>
                  <CookieSettingsButton className="text-slate-600 hover:text-slate-950 hover:underline dark:text-slate-400 dark:hover:text-white" />
                </li>
              )}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-slate-200 py-6 text-center text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400">
        © {year} {site.legalName}. All prices in Indian rupees.
      </div>
    </footer>
  );
}
