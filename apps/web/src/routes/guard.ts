import type { Me } from "@hearth/contract";
import { entryForPath, type RouteAccess } from "./table.ts";

export type GuardDecision =
  | { kind: "allow" }
  /** restriction_complete / restriction_temporary: only the restriction page, on every path. */
  | { kind: "restricted"; restriction: "complete" | "temporary" }
  | { kind: "signIn"; redirect: string }
  | { kind: "accessDenied" }
  /** limited_access holders who lack the route's permission see the ban page in place. */
  | { kind: "limitedAccess" }
  /** A signed-out-only page (sign-in) opened by a member: continue where they were going. */
  | { kind: "continue"; to: string }
  | { kind: "notFound" };

export function restrictionOf(me: Me | null): "complete" | "temporary" | null {
  if (!me) return null;
  if (me.permissions.includes("restriction_complete")) return "complete";
  if (me.permissions.includes("restriction_temporary")) return "temporary";
  return null;
}

/**
 * Only same-origin paths may be redirect targets, so a crafted ?redirect= link can't send
 * someone off-site after they sign in.
 */
export function safeRedirect(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//")) return "/";
  if (value.startsWith("/\\") || /[\r\n\t]/.test(value)) return "/";
  return value;
}

/** Pages a member without a username still reaches: onboarding itself, account and legal pages. */
const ONBOARDING_EXEMPT = new Set([
  "/welcome",
  "/onboarding",
  "/user-not-found",
  "/update-email",
  "/reset-password",
  "/unlock-sign-in",
  "/terms",
  "/privacy",
  "/refund",
  "/2257",
]);

const pathOf = (href: string) => href.split(/[?#]/)[0] ?? href;

/**
 * A signed-in account without a username (made before usernames, or through the hosted login
 * provider or a partner token whose name was taken) chooses one first (accounts-billing-admin
 * §2.2). Guests have no profile, so they are never asked.
 */
export function needsOnboarding(me: Me | null): boolean {
  return me !== null && !me.is_guest && !me.username;
}

function redirectParam(href: string): unknown {
  const query = href.includes("?") ? href.slice(href.indexOf("?") + 1).split("#")[0] : "";
  return new URLSearchParams(query).get("redirect");
}

/**
 * The one access decision for every path. `route` is the table entry that matched the URL, or
 * undefined when nothing did; `href` is the path and query the user asked for.
 */
export function guardRoute(route: RouteAccess | undefined, me: Me | null, href: string): GuardDecision {
  const restriction = restrictionOf(me);
  if (restriction) return { kind: "restricted", restriction };
  if (!route) return { kind: "notFound" };
  if (needsOnboarding(me) && !ONBOARDING_EXEMPT.has(pathOf(href)))
    return { kind: "continue", to: "/welcome" };
  return accessDecision(route, me, href);
}

/** The route's own rule for this user, onboarding aside. */
function accessDecision(route: RouteAccess, me: Me | null, href: string): GuardDecision {
  const member = me !== null && !me.is_guest;
  if (route.signedOutOnly) {
    return member ? { kind: "continue", to: safeRedirect(redirectParam(href)) } : { kind: "allow" };
  }
  if (route.signedOutScreen && !member) return { kind: "allow" };
  if (route.login && !member) return { kind: "signIn", redirect: href };

  // Signed-out visitors hold no permissions and the spec lets such users through (§6); a
  // signed-in user is always checked, since the server grants every account its permissions.
  if (route.permission && me && !me.permissions.includes(route.permission)) {
    return me.permissions.includes("limited_access") ? { kind: "limitedAccess" } : { kind: "accessDenied" };
  }
  return { kind: "allow" };
}

/**
 * Whether a link to this route should be offered to this user (navigation filtering). A
 * signed-out version of a screen doesn't earn a link: only those who can use the page get one.
 * Onboarding is left out: a member choosing a username still sees the navigation they will have.
 */
export function canOpen(route: RouteAccess, me: Me | null): boolean {
  if (restrictionOf(me)) return false;
  const decision = accessDecision({ ...route, signedOutScreen: undefined }, me, "/");
  return decision.kind === "allow";
}

/**
 * Whether a guest session gets to `href`: pages that need an account send guests to sign in,
 * so "Continue as guest" towards one of them would only come back to where it started.
 */
export function guestCanReach(href: string): boolean {
  const route = entryForPath(href);
  return !route?.login || route.signedOutScreen === true;
}
