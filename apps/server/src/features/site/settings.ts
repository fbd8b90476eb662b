import { planId, type SiteConfig } from "@hearth/contract";
import { z } from "zod";
import type { Config } from "../../config.ts";
import { readDataFile } from "../../lib/data-file.ts";
import { saleFile } from "./sale-settings.ts";

/**
 * The public site configuration (GET /api/site). Scalars come from the environment (config.ts);
 * the footer's lists are longer than an environment variable should hold, so an operator may put
 * them in `$HEARTH_DATA_DIR/site.json` (`{"footer": {...}, "crypto_links": {...}}`,
 * docs/partner-mode.md); defaults otherwise.
 */
const link = z.object({ label: z.string().min(1).max(80), url: z.string().min(1).max(2048) });
const siteFile = z.object({
  footer: z
    .object({
      resources: z.array(link).max(20),
      community: z.array(link).max(20),
      socials: z.array(link).max(20),
      app_badges: z
        .array(z.object({ store: z.enum(["google_play", "app_store"]), url: z.string().min(1).max(2048) }))
        .max(4),
      statement_2257: z.boolean(),
    })
    .partial()
    .optional(),
  /** Each plan's external crypto payment address, by plan_id (/subscribe-crypto). */
  crypto_links: z.record(planId, z.url({ protocol: /^https?$/ }).max(2048)).optional(),
  /** The birthday sale's heading, dates and offers (sale-settings.ts). */
  sale: saleFile.optional(),
});
export type SiteFile = z.infer<typeof siteFile>;

/** Reads site.json; a missing file is the defaults, a broken one is refused at start (the operator's typo should not pass silently). */
export function readSiteFile(dataDir: string): SiteFile {
  return readDataFile(dataDir, "site.json", siteFile) ?? {};
}

export function siteConfigOf(config: Config, file: SiteFile): SiteConfig {
  const { site } = config;
  const partner = config.edition === "partner";
  const family = config.edition === "family";
  const footer = file.footer ?? {};
  return {
    brand: { name: config.brand.name, logo_url: site.logoUrl, accent: config.brand.accent },
    edition: config.edition,
    partner: { enabled: partner, logout_url: partner ? site.partnerLogoutUrl : null },
    nsfw_forbidden: family,
    nsfw_forced: partner,
    footer: {
      resources: footer.resources ?? [
        { label: "Privacy Policy", url: "/privacy" },
        { label: "Terms of Service", url: "/terms" },
        { label: "Refund Policy", url: "/refund" },
        { label: "Contribute", url: "/contribute" },
      ],
      community: footer.community ?? [
        { label: "Creators Leaderboard", url: "/creators/leaderboard" },
        { label: "Recommended Bots", url: "/recommended" },
        { label: "Get the app", url: "/download" },
      ],
      socials: footer.socials ?? [],
      app_badges: footer.app_badges ?? [],
      // The adult edition carries the 2257 statement; the family-safe one has nothing to state.
      statement_2257: footer.statement_2257 ?? !family,
    },
    sale_active: site.saleActive,
    mobile_applications: site.androidUrl ? [{ type: "android", download_url: site.androidUrl }] : [],
    application_ids: site.applicationIds,
    easter_giveaway: site.easterCode !== null,
    crypto_links: file.crypto_links ?? {},
  };
}
