// Runs before the app bundle: apply the stored theme, else follow the system preference.
// Kept in sync with src/lib/theme.ts (same storage key and attribute).
(() => {
  let theme = null;
  try {
    theme = localStorage.getItem("hearth.theme");
  } catch {
    // Storage can be blocked (privacy mode); fall back to the system preference.
  }
  if (theme !== "light" && theme !== "dark") {
    theme = window.matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";
  }
  document.documentElement.dataset.theme = theme;
})();
