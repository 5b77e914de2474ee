import { useEffect, useRef, useSyncExternalStore } from "react";
import { Link, useLocation } from "react-router";
import { consentSnapshot, saveConsent, sendPageView, startAnalytics, subscribe } from "../lib/analytics-consent.ts";
import { Button } from "./ui/button.tsx";

/**
 * Asks once whether page views may be measured, and measures them only after a yes: gtag.js is
 * not even requested before. Rendered in the browser only (the server cannot know the answer
 * without making anonymous pages differ per visitor).
 */
export function AnalyticsConsent({ measurementId }: { measurementId: string }) {
  const snapshot = useSyncExternalStore(subscribe, consentSnapshot, () => "server|closed");
  const [consent, panel] = snapshot.split("|");
  const granted = consent === "analytics";
  const location = useLocation();
  const firstButton = useRef<HTMLButtonElement>(null);
  const asking = consent === "unknown" || panel === "open";

  useEffect(() => {
    if (granted) startAnalytics(measurementId);
  }, [granted, measurementId]);

  const page = location.pathname + location.search;
  useEffect(() => {
    if (granted) sendPageView(page);
  }, [granted, page]);

  useEffect(() => {
    if (panel === "open") firstButton.current?.focus();
  }, [panel]);

  if (consent === "server" || !asking) return null;
  return (
    <section
      aria-label="Cookie choices"
      className="fixed inset-x-0 bottom-0 z-50 border-t border-slate-200 bg-white/95 px-4 py-4 shadow-[0_-4px_16px_rgba(15,23,42,0.08)] backdrop-blur print:hidden dark:border-slate-700 dark:bg-slate-900/95"
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm leading-6 text-slate-700 dark:text-slate-300">
          May we count which pages are visited, with Google Analytics, to learn what to improve? It sets its cookies only if you accept, and
          you can change your mind at any time. <Link to="/cookies" className="font-medium underline underline-offset-2">Cookie policy</Link>
        </p>
        <div className="flex shrink-0 gap-2">
          <Button ref={firstButton} variant="secondary" size="sm" onClick={() => saveConsent("none")}>
            Reject
          </Button>
          <Button size="sm" onClick={() => saveConsent("analytics")}>
            Accept
          </Button>
        </div>
      </div>
    </section>
  );
}
