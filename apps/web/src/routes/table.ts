import type { Permission } from "@hearth/contract";
import type { ReactNode } from "react";

/**
 * The whole route table of accounts-billing-admin §2.1, as data. Every spec route is listed with
 * its layout and access rule so guards are tested against the real table; only routes with a
 * `screen` are registered with the router. A route without one falls through to the not-found
 * page: features that aren't built yet are never reachable as empty pages or nav links.
 *
 * Paths use TanStack Router syntax ($param). Where the spec names a page without a path, the path
 * chosen here is marked "named here".
 */

/**
 * main: side nav, top bar, footer. noFooter: the same without the footer (chat, sale, errors).
 * bare: the screen alone (pages shown inside another page's frame).
 */
export type RouteLayout = "main" | "noFooter" | "bare";

export interface RouteAccess {
  /** Signed-in account needed (guests don't count); else the visitor is sent to /sign-in. */
  login?: true;
  /** Permission the signed-in user must hold; else /accessDenied (or the limited-access page). */
  permission?: Permission;
  /** Pages for signed-out visitors and guests (sign-in, sign-up); members are sent on. */
  signedOutOnly?: true;
  /**
   * Signed-out visitors and guests see the screen's own signed-out version (the create page's
   * 'Unlock Bot Creation' hero) instead of being sent to sign in; members are checked as usual.
   */
  signedOutScreen?: true;
}

export interface RouteEntry extends RouteAccess {
  path: string;
  layout: RouteLayout;
  /** Shown in the browser tab. */
  title?: string;
  screen?: () => Promise<{ default: () => ReactNode }>;
}

// Screens reached by more than one path (the spec's aliases) share one entry body.
const myChatbots = {
  layout: "main",
  login: true,
  permission: "view_my_chat_bots",
  title: "My Chatbots",
  screen: () => import("./characters/my-chatbots.tsx"),
} as const satisfies Omit<RouteEntry, "path">;
const drafts = {
  layout: "main",
  login: true,
  permission: "view_my_chat_bots",
  title: "Drafts",
  screen: () => import("./characters/drafts.tsx"),
} as const satisfies Omit<RouteEntry, "path">;
// Logged-out visitors see a hero with an 'Unlock Bot Creation' button (accounts-billing-admin §2.2).
const createChatbot = {
  layout: "main",
  login: true,
  permission: "create_character",
  signedOutScreen: true,
  title: "Create a chatbot",
  screen: () => import("./characters/chatbot-create.tsx"),
} as const satisfies Omit<RouteEntry, "path">;
const editChatbot = {
  layout: "main",
  login: true,
  permission: "create_character",
  title: "Edit chatbot",
  screen: () => import("./characters/chatbot-edit.tsx"),
} as const satisfies Omit<RouteEntry, "path">;

const subscribe = {
  layout: "main",
  login: true,
  title: "Subscribe",
  screen: () => import("./subscribe.tsx"),
} as const satisfies Omit<RouteEntry, "path">;
const portal = {
  layout: "main",
  login: true,
  title: "Manage Subscription",
  screen: () => import("./portal.tsx"),
} as const satisfies Omit<RouteEntry, "path">;

export const routeTable: readonly RouteEntry[] = [
  // No footer, view_chat
  {
    path: "/chat/$characterId",
    layout: "noFooter",
    permission: "view_chat",
    title: "Chat",
    screen: () => import("./chat.tsx"),
  },
  {
    path: "/chat/$characterId/$conversationId",
    layout: "noFooter",
    permission: "view_chat",
    title: "Chat",
    screen: () => import("./chat.tsx"),
  },
  // No footer, nothing beyond the layout
  { path: "/sale", layout: "noFooter", title: "Birthday sale", screen: () => import("./sale.tsx") },
  {
    path: "/external/signup",
    layout: "noFooter",
    title: "Create your account",
    screen: () => import("./external-signup.tsx"),
  },
  {
    path: "/accessDenied",
    layout: "noFooter",
    title: "Access denied",
    screen: () => import("./access-denied.tsx"),
  },

  // Main, view_chat
  { path: "/", layout: "main", permission: "view_chat", screen: () => import("./home.tsx") },
  {
    path: "/external",
    layout: "main",
    permission: "view_chat",
    title: "Welcome",
    screen: () => import("./external.tsx"),
  },
  {
    path: "/creator/$username",
    layout: "main",
    permission: "view_chat",
    title: "Creator",
    screen: () => import("./characters/creator.tsx"),
  },
  // Named here; §6 needs login: signed-out visitors and guests see 'You are not logged in yet!' (§2.2).
  {
    path: "/blocked-creators",
    layout: "main",
    login: true,
    permission: "view_chat",
    signedOutScreen: true,
    title: "Blocked creators",
    screen: () => import("./blocked-creators.tsx"),
  },
  {
    path: "/chats",
    layout: "main",
    permission: "view_chat",
    title: "Chats",
    screen: () => import("./chats.tsx"),
  },
  {
    path: "/chats/$characterId",
    layout: "main",
    permission: "view_chat",
    title: "Chats",
    screen: () => import("./chats-character.tsx"),
  },
  // The favorites page is listed under Main (view_chat) and Protected (login): it needs both.
  {
    path: "/favorites", // named here
    layout: "main",
    login: true,
    permission: "view_chat",
    title: "Favorite Bots",
    screen: () => import("./characters/favorites.tsx"),
  },

  // Open pages
  { path: "/privacy", layout: "main", title: "Privacy Policy", screen: () => import("./pages/privacy.tsx") },
  { path: "/terms", layout: "main", title: "Terms of Service", screen: () => import("./pages/terms.tsx") },
  { path: "/refund", layout: "main", title: "Refund Policy", screen: () => import("./pages/refund.tsx") },
  { path: "/2257", layout: "main", title: "2257 Statement", screen: () => import("./pages/2257.tsx") },
  // named here
  {
    path: "/contribute",
    layout: "main",
    title: "Contribute",
    screen: () => import("./pages/contribute.tsx"),
  },
  {
    path: "/subscribeOld",
    layout: "main",
    title: "Subscribe",
    screen: () => import("./subscribe-old.tsx"),
  },
  {
    path: "/plan-comparison/$frequency",
    layout: "main",
    title: "Compare plans",
    screen: () => import("./plan-comparison.tsx"),
  },
  {
    path: "/subscribe-crypto",
    layout: "main",
    title: "Subscribe with crypto",
    screen: () => import("./subscribe-crypto.tsx"),
  },
  // named here: welcome for the pledge-linking service
  {
    path: "/pledge/welcome",
    layout: "main",
    title: "Thank you",
    screen: () => import("./pledge-welcome.tsx"),
  },
  // named here: partner promo
  { path: "/partner", layout: "main", title: "Partner offer", screen: () => import("./partner-promo.tsx") },
  {
    path: "/easter-giveaway",
    layout: "main",
    title: "Easter giveaway",
    screen: () => import("./easter-giveaway.tsx"),
  },
  {
    path: "/creators/leaderboard",
    layout: "main",
    title: "Creators Leaderboard",
    screen: () => import("./leaderboard.tsx"),
  },
  { path: "/download", layout: "main", title: "Get the app", screen: () => import("./download.tsx") },
  { path: "/apps/android", layout: "main", title: "Get the app", screen: () => import("./download.tsx") },
  // Listed as open, but §2.2 and §6 say the portal is for signed-in users only.
  { path: "/manage-subscription", ...portal },
  { path: "/portal", ...portal },
  // Recommended Bots: one open entry, one needing view_my_chat_bots (§2.1); the same screen.
  {
    path: "/recommended", // named here
    layout: "main",
    title: "Recommended Bots",
    screen: () => import("./recommended.tsx"),
  },
  {
    path: "/recommended/mine", // named here
    layout: "main",
    permission: "view_my_chat_bots",
    title: "Recommended Bots",
    screen: () => import("./recommended.tsx"),
  },
  {
    path: "/report", // named here
    layout: "main",
    permission: "report_character",
    title: "Report a chatbot",
    screen: () => import("./report.tsx"),
  },

  // Account pages Hearth adds: creating an account and signing in happen here, not at a provider.
  {
    path: "/sign-in",
    layout: "main",
    signedOutOnly: true,
    title: "Sign in",
    screen: () => import("./sign-in.tsx"),
  },
  {
    path: "/sign-up",
    layout: "main",
    signedOutOnly: true,
    title: "Create an account",
    screen: () => import("./sign-up.tsx"),
  },
  // Named here: asks for a reset link by e-mail (or says to ask an administrator without mail).
  {
    path: "/forgot-password",
    layout: "main",
    signedOutOnly: true,
    title: "Forgot your password?",
    screen: () => import("./forgot-password.tsx"),
  },

  // Protected, login
  // The spec's protected "sign-up" (username and name): the same onboarding as /welcome.
  {
    path: "/onboarding",
    layout: "main",
    login: true,
    title: "Welcome aboard",
    screen: () => import("./welcome.tsx"),
  },
  { path: "/subscribe", ...subscribe }, // named here
  { path: "/subscribe/$frequency", ...subscribe }, // monthly or annually (§2.2)
  {
    path: "/checkout",
    layout: "main",
    login: true,
    title: "Checkout",
    screen: () => import("./checkout.tsx"),
  },
  {
    path: "/checkout/success",
    layout: "main",
    login: true,
    title: "Thank you",
    screen: () => import("./checkout-success.tsx"),
  },
  // Named here: where the 3-D Secure check returns, inside its iframe (the page asks the server).
  {
    path: "/checkout/3ds-complete",
    layout: "bare",
    title: "Checking your payment",
    screen: () => import("./checkout-3ds-complete.tsx"),
  },
  {
    path: "/update-email",
    layout: "main",
    login: true,
    title: "Add your e-mail",
    screen: () => import("./update-email.tsx"),
  },
  {
    path: "/settings",
    layout: "main",
    login: true,
    title: "Settings",
    screen: () => import("./settings.tsx"),
  },
  {
    path: "/profile", // named here
    layout: "main",
    login: true,
    title: "Profile settings",
    screen: () => import("./profile.tsx"),
  },
  // Anyone: a deleted account's old session is simply signed out by then.
  {
    path: "/user-not-found",
    layout: "main",
    title: "Account not found",
    screen: () => import("./user-not-found.tsx"),
  },
  {
    path: "/welcome",
    layout: "main",
    login: true,
    title: "Welcome aboard",
    screen: () => import("./welcome.tsx"),
  },
  // Named here: where a password reset link leads (one-time token in the query).
  {
    path: "/reset-password",
    layout: "main",
    title: "Choose a new password",
    screen: () => import("./reset-password.tsx"),
  },
  // Named here: where a mailed unlock link leads, after wrong passwords locked signing in.
  {
    path: "/unlock-sign-in",
    layout: "main",
    title: "Unlock signing in",
    screen: () => import("./unlock-sign-in.tsx"),
  },
  // Protected, view_my_chat_bots
  { path: "/my-characters", ...myChatbots },
  { path: "/my-chatbots", ...myChatbots },
  { path: "/my-chatbots/drafts", ...drafts },
  { path: "/chatbots/drafts", ...drafts }, // chat-and-characters §2 names both paths
  // Protected, view_chat. Guests have no personas (chat-and-characters §6): signed-out visitors
  // and guests see the pages' sign-up prompt instead.
  {
    path: "/personas", // named here
    layout: "main",
    login: true,
    permission: "view_chat",
    signedOutScreen: true,
    title: "My Personas",
    screen: () => import("./personas/my-personas.tsx"),
  },
  {
    path: "/personas/create", // named here
    layout: "main",
    login: true,
    permission: "view_chat",
    signedOutScreen: true,
    title: "Persona",
    screen: () => import("./personas/persona-create.tsx"),
  },
  {
    path: "/personas/edit/$personaId",
    layout: "main",
    login: true,
    permission: "view_chat",
    signedOutScreen: true,
    title: "Persona",
    screen: () => import("./personas/persona-edit.tsx"),
  },
  // Named here: standalone lorebooks (issue 14); guests keep none and see a sign-up prompt.
  {
    path: "/lorebooks",
    layout: "main",
    login: true,
    permission: "view_chat",
    signedOutScreen: true,
    title: "Lorebooks",
    screen: () => import("./lorebooks/lorebooks.tsx"),
  },
  {
    path: "/lorebooks/new",
    layout: "main",
    login: true,
    permission: "view_chat",
    signedOutScreen: true,
    title: "New lorebook",
    screen: () => import("./lorebooks/lorebook-create.tsx"),
  },
  {
    path: "/lorebooks/$lorebookId",
    layout: "main",
    login: true,
    permission: "view_chat",
    signedOutScreen: true,
    title: "Lorebook",
    screen: () => import("./lorebooks/lorebook-edit.tsx"),
  },
  // Protected, create_character
  { path: "/character/create", ...createChatbot },
  { path: "/chatbot/create", ...createChatbot },
  { path: "/chatbot/create/$draftId", ...createChatbot },
  { path: "/character/edit/$characterId", ...editChatbot },
  { path: "/chatbot/edit/$characterId", ...editChatbot },
  // The spec lists the profile as Protected (login); Hearth opens it to guests and signed-out
  // visitors (issue 9): a character card is the way into a chat, and it must not end at sign-in.
  {
    path: "/chatbot/$characterId",
    layout: "main",
    permission: "view_chat",
    title: "Chatbot",
    screen: () => import("./characters/chatbot-profile.tsx"),
  },
  // Protected, login
  {
    path: "/link/$pledgeService",
    layout: "main",
    login: true,
    title: "Link your pledge",
    screen: () => import("./link.tsx"),
  },
  {
    path: "/link/$pledgeService/$transientId",
    layout: "main",
    login: true,
    title: "Link your pledge",
    screen: () => import("./link-result.tsx"),
  },
  // Protected, report_character (with the optional character id)
  {
    path: "/report/$characterId",
    layout: "main",
    login: true,
    permission: "report_character",
    title: "Report a chatbot",
    screen: () => import("./report.tsx"),
  },
  // Protected, login only
  // The screen itself sends anyone without the admin permission to /accessDenied.
  {
    path: "/admin/reviews",
    layout: "main",
    login: true,
    title: "Reviews",
    screen: () => import("./admin/reviews.tsx"),
  },
  // Hearth's operator page: user management needs the admin permission.
  {
    path: "/admin/users",
    layout: "main",
    login: true,
    permission: "admin",
    title: "Users",
    screen: () => import("./admin/users.tsx"),
  },
  // Hearth's operator page: the chat model, downloads and switching it need the admin permission.
  {
    path: "/admin/models",
    layout: "main",
    login: true,
    permission: "admin",
    title: "Models",
    screen: () => import("./admin/models.tsx"),
  },
  // Hearth's operator page: manual payments, coupons and granted months need the admin permission.
  {
    path: "/admin/billing",
    layout: "main",
    login: true,
    permission: "admin",
    title: "Billing",
    screen: () => import("./admin/billing.tsx"),
  },
  // Hearth's operator page: house ads and their figures need the admin permission (issue 17).
  {
    path: "/admin/ads",
    layout: "main",
    login: true,
    permission: "admin",
    title: "Ads",
    screen: () => import("./admin/ads.tsx"),
  },
];

/** The entry for an exact table path (not a URL), e.g. "/admin/users". */
export function routeEntry(path: string): RouteEntry | undefined {
  return routeTable.find((entry) => entry.path === path);
}

/**
 * The entry a URL path opens, as the router picks it: a static segment beats a $param
 * ("/chatbot/create" is not a profile). Undefined when nothing matches (not found).
 */
export function entryForPath(pathname: string): RouteEntry | undefined {
  const parts = pathname.split(/[?#]/)[0]?.split("/").filter(Boolean) ?? [];
  let best: { entry: RouteEntry; statics: number } | undefined;
  for (const entry of routeTable) {
    const pattern = entry.path.split("/").filter(Boolean);
    if (pattern.length !== parts.length) continue;
    if (!pattern.every((segment, i) => segment.startsWith("$") || segment === parts[i])) continue;
    const statics = pattern.filter((segment) => !segment.startsWith("$")).length;
    if (!best || statics > best.statics) best = { entry, statics };
  }
  return best?.entry;
}
