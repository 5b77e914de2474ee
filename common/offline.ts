/**
 * Where the service worker (app/offline/service-worker.js) is served. A worker's own response
 * carries its content security policy, so /sw.js gets a page's, unlike any other script.
 */
export const serviceWorkerPath = "/sw.js";
