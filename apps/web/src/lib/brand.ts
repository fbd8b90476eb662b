import type { AppConfig } from "@hearth/contract";

/**
 * Applies the operator's brand: the accent colour feeds every accent token (styles.css), and
 * the name titles the tab. An accent the browser can't parse is ignored so the page stays legible.
 */
export function applyBrand(brand: AppConfig["brand"]) {
  const root = document.documentElement;
  if (brand.accent && CSS.supports("color", brand.accent)) {
    root.style.setProperty("--brand-accent", brand.accent);
  }
  document.title = brand.name;
}

/** "Page · Brand" titles, so tabs and history read well. */
export function pageTitle(page: string | null, brandName: string): string {
  return page ? `${page} · ${brandName}` : brandName;
}
