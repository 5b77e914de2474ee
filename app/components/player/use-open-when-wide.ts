import { type RefObject, useEffect } from "react";

/**
 * Keeps a <details> drawer open on wide screens (Tailwind's `lg`, 64rem), where it is shown as a
 * sidebar. CSS already shows its content there; opening it also puts that content in the
 * accessibility tree, which a closed <details> keeps out even when its content is visible.
 */
export function useOpenWhenWide(ref: RefObject<HTMLDetailsElement | null>) {
  useEffect(() => {
    const wide = window.matchMedia("(min-width: 64rem)");
    const sync = () => {
      if (ref.current) ref.current.open = wide.matches;
    };
    sync();
    wide.addEventListener("change", sync);
    return () => wide.removeEventListener("change", sync);
  }, [ref]);
}
