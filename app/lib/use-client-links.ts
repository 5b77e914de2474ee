import { useEffect, type RefObject } from "react";
import { useNavigate } from "react-router";

/**
 * Plain links in `container` navigate within the app as a `<Link>` would: HTML rendered once on the
 * server (app/lib/server-html.ts), and links that repeat on many pages or many times on one (the
 * header's, the footer's, a course's outline), which cost several times less to render than `<Link>`s. A click with a modifier key, a link to another window, another
 * site or a place on the page shown (the skip link), and a download stay the browser's.
 */
export function useClientLinks(container: RefObject<HTMLElement | null>): void {
  const navigate = useNavigate();
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const follow = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a") : null;
      const { origin, pathname, search, hash } = window.location;
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      if (!element.contains(link) || link.target || link.hasAttribute("download") || link.origin !== origin) return;
      const samePage = link.pathname === pathname && link.search === search;
      if (samePage && link.hash) return;
      event.preventDefault();
      // A link to the page already shown replaces it in the history, as a <Link> does.
      void navigate(link.pathname + link.search + link.hash, { replace: samePage && !hash });
    };
    element.addEventListener("click", follow);
    return () => element.removeEventListener("click", follow);
  }, [container, navigate]);
}
