import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { CloseIcon, MenuIcon } from "./icons.tsx";
import type { RootData } from "../lib/seo.ts";
import { ThemeToggle } from "./theme-toggle.tsx";
import { SkipLink } from "./skip-link.tsx";
import { ButtonLink } from "./ui/button.tsx";
import { signInLinks } from "../../common/sign-in.ts";
import { useClientLinks } from "../lib/use-client-links.ts";

const links = [
  { to: "/courses", label: "Courses" },
  { to: "/services", label: "Services" },
  { to: "/portfolio", label: "Portfolio" },
  { to: "/team", label: "Team" },
  { to: "/help", label: "Help" },
];

// Only a signed-in visitor has it, so its code loads for them rather than with everyone's first page;
// until it has, the menu the server rendered works as a <details>.
const UserMenu = lazy(() => import("./user-menu.tsx").then((module) => ({ default: module.UserMenu })));

/** Whether `pathname` is in the section at `to`, as React Router's NavLink decides it (letter case aside). */
function inSection(pathname: string, to: string): boolean {
  const path = pathname.toLowerCase();
  return path === to || (path.startsWith(to) && path.charAt(to.length) === "/");
}

/**
 * The site's sections as a list of links, the current one marked (aria-current). Plain anchors,
 * which the header makes navigate within the app (a NavLink costs several times more to render);
 * data-discover has React Router learn their routes ahead of a click, as it does a <Link>'s.
 */
function NavLinks({ pathname, className, linkClassName }: { pathname: string; className: string; linkClassName: string }) {
  return (
    <ul className={className}>
      {links.map((link) => (
        <li key={link.to}>
          <a href={link.to} data-discover="true" className={linkClassName} aria-current={inSection(pathname, link.to) ? "page" : undefined}>
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function SiteHeader({ siteName, viewer }: { siteName: string; viewer: RootData["viewer"] }) {
  const location = useLocation();
  const { pathname } = location;
  const entry = viewer ? null : signInLinks(location);
  // The menu belongs to the page it was opened on, so any navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const menu = useRef<HTMLDetailsElement>(null);
  const toggle = useRef<HTMLElement>(null);
  const header = useRef<HTMLElement>(null);
  useClientLinks(header);
  // The menu is a <details>, so it opens before the scripts arrive; one opened then is open from here on.
  useEffect(() => {
    if (menu.current?.open) setOpenOn(pathname);
  }, [pathname]);
  // One menu at a time: touching anything else (the account menu, the page) or Escape closes this one.
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target)) setOpenOn(null);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpenOn(null);
      toggle.current?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <header ref={header} className="sticky top-0 z-30 print:hidden border-b border-slate-200/80 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <SkipLink />
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <a href="/" data-discover="true" className="flex items-center gap-2 text-lg font-bold tracking-tight text-slate-950 dark:text-white">
          <span aria-hidden="true" className="grid size-8 place-items-center rounded-lg bg-brand-600 text-sm text-white">
            {siteName.slice(0, 1)}
          </span>
          {siteName}
        </a>
        <nav aria-label="Main" className="ml-4 hidden md:block">
          <NavLinks pathname={pathname} className="flex items-center gap-1" linkClassName="site-nav-link" />
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <div className="hidden sm:block">
            <ThemeToggle />
          </div>
          {viewer && (
            <Suspense fallback={null}>
              <UserMenu key={pathname} viewer={viewer} />
            </Suspense>
          )}
          {entry && (
            <>
              <ButtonLink to={entry.signIn} size="sm" variant="secondary" className="whitespace-nowrap">
                Sign in
              </ButtonLink>
              <ButtonLink to={entry.signUp} size="sm" className="hidden whitespace-nowrap sm:inline-flex">
                Create account
              </ButtonLink>
            </>
          )}
          <details
            ref={menu}
            open={open}
            onToggle={(event) => setOpenOn(event.currentTarget.open ? pathname : null)}
            className="group md:hidden"
          >
            <summary
              ref={toggle}
              className="inline-flex size-10 cursor-pointer list-none items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800 [&::-webkit-details-marker]:hidden"
            >
              <MenuIcon className="size-6 group-open:hidden" />
              <CloseIcon className="hidden size-6 group-open:block" />
              <span className="sr-only group-open:hidden">Open menu</span>
              <span className="sr-only hidden group-open:inline">Close menu</span>
            </summary>
            {/* Not drawn at all while closed: a closed details only skips its content, whose transitions then never end. */}
            <div className="absolute inset-x-0 top-full hidden border-y border-slate-200 bg-white px-4 pb-4 shadow-lg group-open:block dark:border-slate-800 dark:bg-slate-950">
              <nav aria-label="Mobile">
                <NavLinks pathname={pathname} className="flex flex-col py-2" linkClassName="site-nav-link block py-3 text-base" />
              </nav>
              {entry && (
                <div className="border-t border-slate-200 py-3 sm:hidden dark:border-slate-800">
                  <ButtonLink to={entry.signUp} className="flex w-full justify-center">
                    Create account
                  </ButtonLink>
                </div>
              )}
              <div className="flex items-center justify-between border-t border-slate-200 pt-3 dark:border-slate-800">
                <span className="text-sm text-slate-600 dark:text-slate-400">Theme</span>
                <ThemeToggle />
              </div>
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}
