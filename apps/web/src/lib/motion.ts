/** "smooth" unless the reader asked for reduced motion (prefers-reduced-motion: reduce). */
export function smoothUnlessReduced(): ScrollBehavior {
  if (typeof window === "undefined" || !window.matchMedia) return "auto";
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}
