import type { FastifyInstance } from "fastify";
import type { Config } from "../config.ts";

/**
 * The Content-Security-Policy for the built React client (apps/web/dist):
 * - scripts only from Hearth itself: the build has no inline script (theme-init.js is a file);
 * - styles may be inline: Radix dialogs insert a <style> element (react-remove-scroll) and the
 *   app sets style attributes; inline styles cannot run code;
 * - images from Hearth, data: and blob: (a picked avatar's preview), and the S3 public address
 *   when uploads are served from there;
 * - fetches (the API, event streams) only to Hearth;
 * - no plugins, no <base> rewriting, forms post only to Hearth;
 * - with Stripe set up, its script, API and 3-D Secure frames (Stripe's documented CSP);
 * - framed by no one, or only by the configured trusted origins (partner mode); the 3-D Secure
 *   return page is framed by Hearth's own checkout, so it allows 'self'.
 */
type HeaderConfig = Pick<Config, "trustedOrigins" | "storage"> &
  Partial<Pick<Config, "billing" | "product" | "publicUrl">>;

/**
 * Browsers keep to HTTPS for this long once they have seen Hearth over it (180 days). Only when
 * PUBLIC_URL is https: a site served over plain HTTP must not promise it. No includeSubDomains:
 * other services on sibling names are the operator's, not Hearth's, to commit.
 */
const HSTS = "max-age=15552000";

/** The page a 3-D Secure challenge returns to, inside the checkout's own frame. */
export const FRAMED_BY_SELF = "/checkout/3ds-complete";

function stripeOrigins(config: HeaderConfig) {
  const stripe = config.billing?.stripe;
  if (!stripe) return { script: [], connect: [], frame: [] };
  const script = new URL(stripe.scriptUrl).origin;
  const api = stripe.apiUrl ? new URL(stripe.apiUrl).origin : "https://api.stripe.com";
  const hooks = stripe.apiUrl ? api : "https://hooks.stripe.com";
  return { script: [script], connect: [api], frame: [...new Set([script, hooks])] };
}

export function contentSecurityPolicy(config: HeaderConfig, opts: { framedBySelf?: boolean } = {}): string {
  const s3 = config.storage.s3?.publicUrl;
  // Ad images may come from the origins the operator names (HEARTH_ADS_IMAGE_ORIGINS).
  const adImages = config.product?.ads.imageOrigins ?? [];
  const images = ["'self'", "data:", "blob:", ...(s3 ? [new URL(s3).origin] : []), ...adImages];
  const ancestors =
    config.trustedOrigins.length > 0 || opts.framedBySelf ? ["'self'", ...config.trustedOrigins] : ["'none'"];
  const stripe = stripeOrigins(config);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...stripe.script].join(" "),
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images.join(" ")}`,
    "font-src 'self' data:",
    ["connect-src 'self'", ...stripe.connect].join(" "),
    ["frame-src 'self'", ...stripe.frame].join(" "),
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${ancestors.join(" ")}`,
  ].join("; ");
}

/** Every header this module sets, for the install hook and for tests. */
export function securityHeaders(
  config: HeaderConfig,
  opts: { framedBySelf?: boolean } = {},
): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(config, opts),
    "x-content-type-options": "nosniff",
    ...(config.publicUrl?.startsWith("https:") ? { "strict-transport-security": HSTS } : {}),
    // Not no-referrer: under it browsers send `Origin: null` on same-origin POSTs, which the
    // origin check must refuse. This keeps full URLs (chat ids) on Hearth's own requests and
    // sends other sites the origin only (nothing at all on a downgrade to http).
    "referrer-policy": "strict-origin-when-cross-origin",
    // The old spelling of frame-ancestors for old browsers; it cannot name a list of origins, so
    // it is left out when partner sites may embed Hearth.
    ...(config.trustedOrigins.length === 0
      ? { "x-frame-options": opts.framedBySelf ? "SAMEORIGIN" : "DENY" }
      : {}),
  };
}

/**
 * Security headers on every answer: the web client's HTML above all, but also JSON, files and
 * errors (an API answer opened directly is a document too). Set on the raw response, so event
 * streams written with `reply.hijack()` carry them as well.
 */
export function installSecurityHeaders(app: FastifyInstance, config: HeaderConfig) {
  const headers = Object.entries(securityHeaders(config));
  const framedHeaders = Object.entries(securityHeaders(config, { framedBySelf: true }));
  app.addHook("onRequest", async (req, reply) => {
    const framed = req.url === FRAMED_BY_SELF || req.url.startsWith(`${FRAMED_BY_SELF}?`);
    for (const [name, value] of framed ? framedHeaders : headers) reply.raw.setHeader(name, value);
  });
}
