import { startTransition, StrictMode, useEffect, type ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { registerServiceWorker } from "./lib/offline.ts";

/** React Router's default entry, plus one mark and the service worker: `data-hydrated` on <html> tells tests the page now answers to scripts. */
function MarkHydrated({ children }: { children: ReactNode }) {
  // The outermost effect: it runs after every component of the page has hydrated and run its own.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return children;
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <MarkHydrated>
        <HydratedRouter />
      </MarkHydrated>
    </StrictMode>,
  );
});

registerServiceWorker();
