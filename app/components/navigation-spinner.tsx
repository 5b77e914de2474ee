import { useEffect, useState } from "react";
import { useNavigation } from "react-router";

/** Delay before the spinner appears, so fast navigations never flicker. */
export const spinnerDelayMs = 150;

/**
 * The full-screen "Loading..." overlay shown while a client navigation loads a page. A form that
 * changes something shows its own pending state on its button instead.
 */
export function NavigationSpinner() {
  const navigation = useNavigation();
  const pending = navigation.formMethod && navigation.formMethod !== "GET" ? undefined : navigation.location?.key;
  // The key of the navigation that has been pending longer than the delay.
  const [slow, setSlow] = useState<string | undefined>();

  useEffect(() => {
    if (pending === undefined) return;
    const timer = setTimeout(() => setSlow(pending), spinnerDelayMs);
    return () => clearTimeout(timer);
  }, [pending]);

  if (pending === undefined || slow !== pending) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-white/80 backdrop-blur-sm dark:bg-slate-950/80"
    >
      <span
        aria-hidden="true"
        className="size-10 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600 dark:border-slate-700 dark:border-t-brand-400"
      />
      <p className="text-sm font-medium text-slate-700 dark:text-slate-200">Loading...</p>
    </div>
  );
}
