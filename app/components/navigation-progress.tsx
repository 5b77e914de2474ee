import { useEffect, useState } from "react";
import { useNavigation } from "react-router";

/** How long a navigation shows only the thin bar before the full-screen overlay (decision 029). */
export const overlayDelayMs = 400;

/**
 * What a client navigation shows while the next page loads: at once a thin bar along the top of the
 * window, and the spec's full-screen "Loading..." only when the page is still not there after
 * `overlayDelayMs`, so a quick page never blurs the one being read. A form that changes something
 * shows its own pending state on its button instead.
 */
export function NavigationProgress() {
  const navigation = useNavigation();
  const pending = navigation.formMethod && navigation.formMethod !== "GET" ? undefined : navigation.location?.key;
  // The key of the navigation that has been pending longer than the delay.
  const [slow, setSlow] = useState<string | undefined>();

  useEffect(() => {
    if (pending === undefined) return;
    const timer = setTimeout(() => setSlow(pending), overlayDelayMs);
    return () => clearTimeout(timer);
  }, [pending]);

  if (pending === undefined) return null;
  return (
    <>
      <div role="progressbar" aria-label="Loading the next page" className="fixed inset-x-0 top-0 z-[60] h-1 bg-brand-100 dark:bg-slate-800">
        <div className="h-full origin-left animate-navigation-progress bg-brand-600 motion-reduce:animate-none dark:bg-brand-400" />
      </div>
      {slow === pending && (
        <div
          role="status"
          aria-live="polite"
          className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-4 bg-white/80 backdrop-blur-sm dark:bg-slate-950/80"
        >
          <span
            aria-hidden="true"
            className="size-10 animate-spin rounded-full border-4 border-brand-200 border-t-brand-600 motion-reduce:animate-none dark:border-slate-700 dark:border-t-brand-400"
          />
          <p className="text-sm font-medium text-slate-700 dark:text-slate-200">Loading...</p>
        </div>
      )}
    </>
  );
}
