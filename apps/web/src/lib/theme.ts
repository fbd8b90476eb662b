import { useSyncExternalStore } from "react";

/** Same key and attribute as public/theme-init.js, which applies the theme before first paint. */
const storageKey = "hearth.theme";
export type Theme = "light" | "dark";

const systemLight = () => window.matchMedia("(prefers-color-scheme: light)");

/** The user's pick when storage is blocked (privacy mode): it then lasts for this page only. */
let unsavedTheme: Theme | null = null;

function storedTheme(): Theme | null {
  try {
    const value = localStorage.getItem(storageKey);
    return value === "light" || value === "dark" ? value : unsavedTheme;
  } catch {
    return unsavedTheme;
  }
}

function effectiveTheme(): Theme {
  return storedTheme() ?? (systemLight().matches ? "light" : "dark");
}

const listeners = new Set<() => void>();
function notify() {
  document.documentElement.dataset.theme = effectiveTheme();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Follow the system setting live until the user picks a theme themselves.
  const media = systemLight();
  media.addEventListener("change", notify);
  window.addEventListener("storage", notify);
  return () => {
    listeners.delete(listener);
    media.removeEventListener("change", notify);
    window.removeEventListener("storage", notify);
  };
}

export function setTheme(theme: Theme) {
  unsavedTheme = theme;
  try {
    localStorage.setItem(storageKey, theme);
  } catch {
    // Kept in memory only (see unsavedTheme).
  }
  notify();
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  const theme = useSyncExternalStore(subscribe, () => document.documentElement.dataset.theme as Theme);
  return [theme === "light" ? "light" : "dark", setTheme];
}
