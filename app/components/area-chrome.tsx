import { type ReactNode, useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { Container } from "./page-intro.tsx";

/**
 * A signed-in area's frame (the account, the back office): a band with the area's heading, a line
 * about who is there, and its tabs (`tabs`: `<li>`s of `TabLink`s), then the page. On a phone the
 * tabs scroll sideways rather than wrap, and the current one is brought into view.
 */
export function AreaChrome({ heading, detail, label, tabs, children }: { heading: ReactNode; detail: ReactNode; label: string; tabs: ReactNode; children: ReactNode }) {
  const { pathname } = useLocation();
  const tabBar = useRef<HTMLElement>(null);
  useEffect(() => {
    const bar = tabBar.current;
    const current = bar?.querySelector<HTMLElement>(`a[href="${pathname}"]`);
    if (bar && current) bar.scrollTo({ left: current.offsetLeft - bar.clientWidth / 2 + current.offsetWidth / 2 });
  }, [pathname]);
  return (
    <>
      <div className="border-b border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/50">
        <Container className="pt-8 sm:pt-10">
          {heading}
          {detail && <p className="mt-2 truncate text-sm text-slate-600 dark:text-slate-400">{detail}</p>}
          {/* The negative margin lets the scrolling tabs run to the screen's edge. */}
          <nav ref={tabBar} aria-label={label} className="-mx-4 mt-6 overflow-x-auto px-4 [scrollbar-width:thin] sm:mx-0 sm:px-0">
            <ul className="flex w-max min-w-full items-end">{tabs}</ul>
          </nav>
        </Container>
      </div>
      <Container className="py-8 sm:py-10">{children}</Container>
    </>
  );
}
