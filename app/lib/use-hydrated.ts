import { useSyncExternalStore } from "react";

const subscribeNever = () => () => {};

/** False while the server's HTML renders and is hydrated, true right after: what needs JavaScript shows from then on. */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribeNever, () => true, () => false);
}
