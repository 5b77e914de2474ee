import { useEffect, type RefObject } from "react";
import { useNavigate } from "react-router";

/**
 * Links in HTML rendered once on the server rather than by `<Link>` (app/lib/server-html.ts)
 * navigate within the app as a `<Link>` would: a plain click on a link to this site. A click with a
 * modifier key, a link to another window or another site, and a download stay the browser's.
 */
export function useClientLinks(container: RefObject<HTMLElement | null>): void {
  const navigate = useNavigate();
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const follow = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest("a") : null;
      if (!link || !element.contains(link) || link.target || link.hasAttribute("download") || link.origin !== window.location.origin) return;
      event.preventDefault();
      void navigate(link.pathname + link.search + link.hash);
    };
    element.addEventListener("click", follow);
    return () => element.removeEventListener("click", follow);
  }, [container, navigate]);
}
