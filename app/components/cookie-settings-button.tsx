const openSettings = () => void import("../lib/analytics-consent.ts").then((consent) => consent.openConsentSettings());

/**
 * Opens the analytics choice again, from the footer and the cookie policy (shown only on a site that
 * measures page views). The consent code is fetched with the banner, not with every page.
 */
export function CookieSettingsButton({ className }: { className: string }) {
  return (
    <button type="button" onClick={openSettings} className={className}>
      Cookie settings
    </button>
  );
}
