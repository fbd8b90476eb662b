import { z } from "zod";
import { displayName, username } from "./accounts.ts";

/**
 * The site's public configuration and secondary pages (accounts-billing-admin §1 editions,
 * §2.2 Layout, Other pages, Android install page, §3 Mobile application, §4 Partner mode).
 */

export const link = z.object({ label: z.string(), url: z.string() });
export type SiteLink = z.infer<typeof link>;

export const mobileApplication = z.object({ type: z.enum(["android"]), download_url: z.string() });
export type MobileApplication = z.infer<typeof mobileApplication>;

export const siteConfig = z.object({
  brand: z.object({
    name: z.string(),
    /** An operator's logo address; null shows the brand name only. */
    logo_url: z.string().nullable(),
    accent: z.string(),
  }),
  edition: z.enum(["roleplay", "family", "partner"]),
  partner: z.object({
    /** Partner mode: token login, NSFW forced on, the partner navbar, no ads or analytics. */
    enabled: z.boolean(),
    /** Where signed-out visitors go in partner mode; null: stay on the site. */
    logout_url: z.string().nullable(),
  }),
  /** True where NSFW bots are never shown (the family-safe edition). */
  nsfw_forbidden: z.boolean(),
  /** True where NSFW is always on (partner mode). */
  nsfw_forced: z.boolean(),
  footer: z.object({
    resources: z.array(link),
    community: z.array(link),
    socials: z.array(link),
    app_badges: z.array(z.object({ store: z.enum(["google_play", "app_store"]), url: z.string() })),
    /** Show the 18 U.S.C. 2257 statement link. */
    statement_2257: z.boolean(),
  }),
  /** The birthday sale is configured: the header banner shows (until dismissed locally). */
  sale_active: z.boolean(),
  mobile_applications: z.array(mobileApplication),
  /** The partner application ids of the two editions (§3); null when not configured. */
  application_ids: z.object({ roleplay: z.string().nullable(), family: z.string().nullable() }),
  /** An Easter code is configured (the page still checks the subscription). */
  easter_giveaway: z.boolean(),
  /**
   * Each plan's external crypto payment address by plan_id (/subscribe-crypto, §2.2); empty where
   * the operator offers none. Such payments are linked to the account by an administrator.
   */
  crypto_links: z.record(z.string(), z.string()),
});
export type SiteConfig = z.infer<typeof siteConfig>;

export const PAGE_SLUGS = ["privacy", "terms", "refund", "2257", "contribute"] as const;
export const pageSlug = z.enum(PAGE_SLUGS);
export type PageSlug = z.infer<typeof pageSlug>;
export const pageParams = z.object({ slug: pageSlug });
export const markdownPage = z.object({ slug: pageSlug, markdown: z.string() });
export type MarkdownPage = z.infer<typeof markdownPage>;

export const EASTER_REFUSAL =
  "We're sorry, you must have an active Premium subscription to access this exclusive Easter code.";
export const easterCode = z.object({ code: z.string() });

/** A partner's signed token (docs/partner-mode.md), taken from `?token=` by the web. */
export const partnerLogin = z.object({ token: z.string().min(1).max(4096) });

export const EXTERNAL_MIN = 4;
/** External sign-up (/external/signup): name and username, minimum 4 each (§5). */
export const externalSignup = z.object({
  name: displayName.pipe(z.string().min(EXTERNAL_MIN, "Name should be of atleast 4 characters")),
  username: username.pipe(
    z.string().min(EXTERNAL_MIN, "Username is too short, it should be at least 4 characters long."),
  ),
});
export type ExternalSignup = z.input<typeof externalSignup>;
