import { useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

/**
 * While `active`, reloads the page's data every `intervalMs`, each reload waiting for the last to
 * finish, and gives up after `limit` reloads: for states that another party (a bank, a webhook)
 * settles in a few seconds.
 */
export function useReloadWhile(active: boolean, { intervalMs, limit }: { intervalMs: number; limit: number }) {
  const { revalidate, state } = useRevalidator();
  const reloads = useRef(0);
  useEffect(() => {
    if (!active || state !== "idle" || reloads.current >= limit) return;
    const timer = setTimeout(() => {
      reloads.current += 1;
      void revalidate();
    }, intervalMs);
    return () => clearTimeout(timer);
  }, [active, state, revalidate, intervalMs, limit]);
}
