import { useCallback, useEffect, useSyncExternalStore } from "react";

export type ThemePreference = "system" | "light" | "dark";

/** The one localStorage key holding the theme choice (spec §9). */
export const themeStorageKey = "academy-theme";

/**
 * Runs inline in <head> before first paint, so a server-rendered page never flashes the wrong
 * theme. Kept as a plain string: it must not depend on any bundle.
 */
export const themeBootstrapScript = `(function(){var r=document.documentElement,p="system";try{p=localStorage.getItem("${themeStorageKey}")||"system"}catch(e){}var d=p==="dark"||(p!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches);r.classList.toggle("dark",d);r.style.colorScheme=d?"dark":"light";r.dataset.theme=p==="light"||p==="dark"?p:"system"})()`;

const listeners = new Set<() => void>();

function readPreference(): ThemePreference {
  try {
    const stored = localStorage.getItem(themeStorageKey);
    return stored === "light" || stored === "dark" ? stored : "system";
  } catch {
    return "system";
  }
}

function systemPrefersDark(): boolean {
  return matchMedia("(prefers-color-scheme: dark)").matches;
}

function applyTheme(preference: ThemePreference): void {
  const dark = preference === "dark" || (preference === "system" && systemPrefersDark());
  const root = document.documentElement;
  root.classList.toggle("dark", dark);
  root.style.colorScheme = dark ? "dark" : "light";
  root.dataset.theme = preference;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === themeStorageKey) {
      applyTheme(readPreference());
      listener();
    }
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

export function setThemePreference(preference: ThemePreference): void {
  try {
    localStorage.setItem(themeStorageKey, preference);
  } catch {
    // Storage can be unavailable (private mode); the choice then lasts for this page only.
  }
  applyTheme(preference);
  for (const listener of listeners) listener();
}

/** The stored preference; while it is "system", follows the device's colour scheme live. */
export function useThemePreference(): [ThemePreference, (next: ThemePreference) => void] {
  const preference = useSyncExternalStore(subscribe, readPreference, () => "system" as const);
  // React mounting the document afresh (an error page shown in the browser) drops the class the bootstrap script set.
  useEffect(() => applyTheme(preference), [preference]);
  useEffect(() => {
    if (preference !== "system") return;
    const query = matchMedia("(prefers-color-scheme: dark)");
    const onChange = () => applyTheme("system");
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, [preference]);
  return [preference, useCallback((next: ThemePreference) => setThemePreference(next), [])];
}
