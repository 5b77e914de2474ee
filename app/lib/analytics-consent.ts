// The visitor's answer to "may we measure page views?", kept in a first-party cookie the browser
// reads (the server renders the same page for everyone, so the anonymous page cache stays safe),
// and GA4's gtag.js, loaded only once the answer is yes.

export type Consent = "analytics" | "none";

const cookieName = "academy_consent";
const maxAgeSeconds = 180 * 24 * 60 * 60;

export function readConsent(): Consent | null {
  const value = document.cookie.split("; ").find((c) => c.startsWith(`${cookieName}=`))?.slice(cookieName.length + 1);
  return value === "analytics" || value === "none" ? value : null;
}

/** The consent store the banner, the footer and the cookie policy share. */
let settingsOpen = false;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const consentSnapshot = () => `${readConsent() ?? "unknown"}|${settingsOpen ? "open" : "closed"}`;

export function openConsentSettings() {
  settingsOpen = true;
  notify();
}

/** Records the answer; saying no also removes any cookie GA4 set while the answer was yes. */
export function saveConsent(consent: Consent) {
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${cookieName}=${consent}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure}`;
  settingsOpen = false;
  if (consent === "none") {
    // GA4 sets its cookies on the widest domain it may ("auto"); a host-only cookie has no Domain at all.
    const labels = location.hostname.split(".");
    const scopes = ["", ...labels.slice(0, -1).map((_, i) => `; Domain=${labels.slice(i).join(".")}`)];
    for (const name of document.cookie.split("; ").map((c) => c.split("=")[0] ?? "")) {
      if (name !== "_ga" && !name.startsWith("_ga_")) continue;
      for (const scope of scopes) document.cookie = `${name}=; Max-Age=0; Path=/${scope}`;
    }
    gtag("consent", "update", { analytics_storage: "denied" });
  }
  notify();
}

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

/** Google's own snippet: gtag.js reads Arguments objects from the data layer, not arrays. */
function gtag(..._args: unknown[]) {
  window.dataLayer?.push(arguments);
}

let loadedFor: string | null = null;

/** Loads gtag.js for this measurement id (once), with analytics storage granted and no automatic page view. */
export function startAnalytics(measurementId: string) {
  if (loadedFor === measurementId) {
    gtag("consent", "update", { analytics_storage: "granted" });
    return;
  }
  loadedFor = measurementId;
  window.dataLayer = window.dataLayer ?? [];
  gtag("consent", "default", { analytics_storage: "denied", ad_storage: "denied", ad_user_data: "denied", ad_personalization: "denied" });
  gtag("consent", "update", { analytics_storage: "granted" });
  gtag("js", new Date());
  gtag("config", measurementId, { send_page_view: false });
  const script = document.createElement("script");
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
  document.head.append(script);
}

/** One page view, for the first page and for every client-side navigation after it. */
export function sendPageView(path: string) {
  gtag("event", "page_view", { page_location: new URL(path, location.origin).href, page_path: path, page_title: document.title });
}
