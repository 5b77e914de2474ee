import { useEffect } from "react";

/**
 * A lesson table wider than its column scrolls in its own box (`.table-scroll`, as the lesson renderer
 * writes it): that box joins the Tab order, named, only while it has something to scroll, so the
 * keyboard can scroll it and a table that fits costs no Tab stop.
 */
export function ScrollableTables({ containerId, html }: { containerId: string; html: string }) {
  useEffect(() => {
    const container = document.getElementById(containerId);
    if (!container || !html) return;
    const boxes = [...container.querySelectorAll<HTMLElement>(".table-scroll")];
    const update = (box: HTMLElement) => {
      if (box.scrollWidth > box.clientWidth) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", "Table (scrolls sideways)");
      } else {
        for (const name of ["tabindex", "role", "aria-label"]) box.removeAttribute(name);
      }
    };
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) update(entry.target as HTMLElement);
    });
    for (const box of boxes) observer.observe(box);
    return () => observer.disconnect();
  }, [containerId, html]);
  return null;
}
