import { serviceWorkerPath } from "../../common/offline.ts";

// Refused (a browser that blocks workers): the site works as before, without offline reading.
const register = () => void navigator.serviceWorker.register(serviceWorkerPath).catch(() => undefined);

/**
 * The service worker (app/offline/service-worker.js, served as /sw.js) keeps the lessons a learner
 * opens for reading offline, and answers pages it cannot load with the offline page. Production
 * builds only: the development server has no /sw.js.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

/** Nobody is signed in on this page: the worker forgets every lesson it kept (a shared computer). */
export function forgetKeptLessons(): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  void navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage("signed-out"));
}
