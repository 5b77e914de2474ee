/**
 * Opens the analytics choice again, from the footer and the cookie policy (shown only on a site that
 * measures page views). The consent code is fetched with the banner, not with every page.
 */
export function CookieSettingsButton({ className }: { className: string }) {
  const open = () => void import("../lib/analytics-consent.ts").then((consent) => consent.openConsentSettings());
  return (
    <button type="button" onClick={open} className={className}>
      Cookie settings
    </button>
  );
}
