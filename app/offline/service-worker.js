// The site's service worker, served as /sw.js (built by vite.config.ts, which puts `buildVersion`
// before this text). It does three things and no more:
// - a page that cannot be loaded for want of a network is answered with the offline page;
// - a lesson page a signed-in learner opens is kept, newest copy first, so it still reads offline;
// - a page shown to nobody signed in has it forget every kept lesson (a shared computer).
// Nothing else is kept: not other pages, not the API, not page data.
/* global buildVersion */

const offlineCache = `academy-offline-${buildVersion}`;
const lessonCache = `academy-lessons-${buildVersion}`;
const offlinePage = "/offline.html";
const offlineFiles = [offlinePage, "/offline.css"];
const lessonPage = /^\/courses\/[^/]+\/submodule\/[^/.]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(offlineCache)
      .then((cache) => cache.addAll(offlineFiles.map((path) => new Request(path, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

// A new build's worker drops the caches of the one before: its pages name scripts that are gone.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith("academy-") && name !== offlineCache && name !== lessonCache).map((name) => caches.delete(name)));
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
      // The lesson open when the site first installed this worker was loaded without it: keep it now.
      const windows = await self.clients.matchAll({ type: "window" });
      await Promise.all(windows.map((client) => new URL(client.url)).filter((url) => lessonPage.test(url.pathname)).map((url) => keepLesson(url.pathname)));
    })(),
  );
});

// The page says when nobody is signed in (app/root.tsx).
self.addEventListener("message", (event) => {
  if (event.data === "signed-out") event.waitUntil(caches.delete(lessonCache));
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(event, url));
  else if (request.method === "GET" && offlineFiles.includes(url.pathname)) event.respondWith(offlineFile(request));
  else if (url.pathname.endsWith(".data") || url.pathname === "/__manifest") event.respondWith(pageData(event, url));
});

/** The offline page and its stylesheet, as this build kept them. */
async function offlineFile(request) {
  return (await caches.match(request, { cacheName: offlineCache })) ?? fetch(request);
}

/** Only a lesson rendered for a signed-in learner (the server marks those `private`) is kept. */
function keepable(response) {
  return response.status === 200 && !response.redirected && /\bprivate\b/.test(response.headers.get("cache-control") ?? "");
}

/** Fetches a lesson page as the browser would open it, and keeps it. */
async function keepLesson(path) {
  try {
    const response = await fetch(path, { headers: { accept: "text/html" } });
    if (keepable(response)) await (await caches.open(lessonCache)).put(path, response);
  } catch {
    // No network: the copy kept before, if any, stays.
  }
}

/** A page: from the network; without one, the lesson kept from before, or the offline page. */
async function page(event, url) {
  const lesson = event.request.method === "GET" && lessonPage.test(url.pathname);
  try {
    const response = (await event.preloadResponse) ?? (await fetch(event.request));
    if (lesson && keepable(response)) {
      const copy = response.clone();
      event.waitUntil(caches.open(lessonCache).then((cache) => cache.put(url.pathname, copy)));
    }
    return response;
  } catch (error) {
    const kept = lesson ? await caches.match(url.pathname, { cacheName: lessonCache }) : undefined;
    const offline = kept ?? (await caches.match(offlinePage, { cacheName: offlineCache }));
    if (offline) return offline;
    throw error;
  }
}

/**
 * The data of a page React Router moves to in the browser, or a form it sends. A lesson opened
 * this way is kept as a whole page too. Without a network, React Router is told (in its own
 * protocol: a 204 with X-Remix-Redirect and X-Remix-Reload-Document) to load a whole page instead,
 * which `page` answers: the page asked for, or after a form, the offline page.
 */
async function pageData(event, url) {
  const { request } = event;
  const address = url.pathname.replace(/(\/_)?\.data$/, (_, root) => (root ? "/" : ""));
  try {
    const response = await fetch(request);
    if (request.method === "GET" && lessonPage.test(address) && keepable(response)) event.waitUntil(keepLesson(address));
    return response;
  } catch {
    const to = request.method === "GET" && url.pathname !== "/__manifest" ? address + searchWithout(url, "_routes") : offlinePage;
    return new Response(null, { status: 204, headers: { "X-Remix-Redirect": to, "X-Remix-Reload-Document": "true" } });
  }
}

function searchWithout(url, name) {
  const params = new URLSearchParams(url.search);
  params.delete(name);
  const search = params.toString();
  return search ? `?${search}` : "";
}
