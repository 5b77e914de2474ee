/**
 * The browsers on these machines (root, no GPU, closed network), both Debian's, and the flags they need.
 * The end-to-end tests drive the old headless shell (decision 023): the same Blink and V8 as Chromium,
 * without its window system, GPU process or browser UI, at two thirds of the CPU.
 */
export const testBrowserPath = process.env.CHROMIUM_PATH ?? "/usr/lib/chromium/chromium-headless-shell";

/** The whole browser, as a visitor runs it: Lighthouse and the first-load bench measure what it does. */
export const chromiumPath = "/usr/bin/chromium";

export const chromiumFlags = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
