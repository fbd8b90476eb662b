import type { Me, Permission } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { visibleNav } from "../features/shell/nav-items.ts";
import { guardRoute, guestCanReach, safeRedirect } from "./guard.ts";
import { entryForPath, routeEntry, routeTable } from "./table.ts";

const memberPermissions: Permission[] = [
  "site_access",
  "view_chat",
  "view_my_chat_bots",
  "create_character",
  "report_character",
  "personas",
];

function user(overrides: Partial<Me> = {}): Me {
  return {
    id: "u1",
    email: "ada@example.com",
    name: "Ada",
    username: "ada",
    avatar_url: null,
    role: "free",
    status: "active",
    restriction: "none",
    is_guest: false,
    is_admin: false,
    permissions: memberPermissions,
    context_tokens: 2048,
    created_at: "2025-01-01T00:00:00Z",
    ...overrides,
  };
}

const free = user();
const admin = user({ is_admin: true, permissions: [...memberPermissions, "admin"] });
const guest = user({
  is_guest: true,
  email: null,
  username: null,
  permissions: ["site_access", "view_chat"],
});
const limited = user({ restriction: "limited", permissions: ["site_access", "limited_access"] });

function entry(path: string) {
  const found = routeEntry(path);
  if (!found) throw new Error(`no table entry for ${path}`);
  return found;
}

describe("guardRoute", () => {
  it("shows only the restriction page to restricted accounts, on every path", () => {
    const complete = user({ permissions: ["restriction_complete", "admin"] });
    const temporary = user({ permissions: ["site_access", "restriction_temporary"] });
    for (const route of [entry("/"), entry("/admin/users"), entry("/sign-in"), undefined]) {
      expect(guardRoute(route, complete, "/x")).toEqual({ kind: "restricted", restriction: "complete" });
      expect(guardRoute(route, temporary, "/x")).toEqual({ kind: "restricted", restriction: "temporary" });
    }
  });

  it("answers not-found for paths outside the table", () => {
    expect(guardRoute(undefined, null, "/nope")).toEqual({ kind: "notFound" });
    expect(guardRoute(undefined, admin, "/nope")).toEqual({ kind: "notFound" });
  });

  it("sends signed-out visitors and guests to sign in for login routes, keeping where they were going", () => {
    expect(guardRoute(entry("/admin/users"), null, "/admin/users?q=a")).toEqual({
      kind: "signIn",
      redirect: "/admin/users?q=a",
    });
    expect(guardRoute(entry("/settings"), guest, "/settings")).toEqual({
      kind: "signIn",
      redirect: "/settings",
    });
    expect(guardRoute(entry("/settings"), free, "/settings")).toEqual({ kind: "allow" });
  });

  it("sends users without the route's permission to /accessDenied", () => {
    expect(guardRoute(entry("/admin/users"), free, "/admin/users")).toEqual({ kind: "accessDenied" });
    expect(guardRoute(entry("/admin/users"), admin, "/admin/users")).toEqual({ kind: "allow" });
    expect(guardRoute(entry("/my-chatbots"), guest, "/my-chatbots")).toEqual({
      kind: "signIn",
      redirect: "/my-chatbots",
    });
    const noCreate = user({ permissions: ["site_access", "view_chat"] });
    expect(guardRoute(entry("/chatbot/create"), noCreate, "/chatbot/create")).toEqual({
      kind: "accessDenied",
    });
  });

  it("shows the create page's signed-out version to visitors and guests, and checks members", () => {
    for (const path of ["/chatbot/create", "/chatbot/create/$draftId", "/character/create"]) {
      expect(guardRoute(entry(path), null, "/chatbot/create")).toEqual({ kind: "allow" });
      expect(guardRoute(entry(path), guest, "/chatbot/create")).toEqual({ kind: "allow" });
      expect(guardRoute(entry(path), free, "/chatbot/create")).toEqual({ kind: "allow" });
    }
    const noCreate = user({ permissions: ["site_access", "view_chat"] });
    expect(guardRoute(entry("/chatbot/create"), noCreate, "/chatbot/create")).toEqual({
      kind: "accessDenied",
    });
    // The Personas pages show guests a sign-up prompt (chat-and-characters §6).
    for (const path of ["/personas", "/personas/create", "/personas/edit/$personaId"]) {
      expect(guardRoute(entry(path), guest, "/personas")).toEqual({ kind: "allow" });
      expect(guardRoute(entry(path), free, "/personas")).toEqual({ kind: "allow" });
    }
    // The editor has no signed-out version.
    expect(guardRoute(entry("/chatbot/edit/$characterId"), null, "/chatbot/edit/1")).toEqual({
      kind: "signIn",
      redirect: "/chatbot/edit/1",
    });
  });

  it("shows the limited-access page to limited_access holders who lack the permission", () => {
    expect(guardRoute(entry("/"), limited, "/")).toEqual({ kind: "limitedAccess" });
    expect(guardRoute(entry("/admin/users"), limited, "/admin/users")).toEqual({ kind: "limitedAccess" });
    const limitedReader = user({ permissions: ["site_access", "view_chat", "limited_access"] });
    expect(guardRoute(entry("/"), limitedReader, "/")).toEqual({ kind: "allow" });
  });

  it("lets signed-out visitors through permission-only routes (they hold no permissions, spec §6)", () => {
    expect(guardRoute(entry("/"), null, "/")).toEqual({ kind: "allow" });
    expect(guardRoute(entry("/chat/$characterId"), null, "/chat/1")).toEqual({ kind: "allow" });
    expect(guardRoute(entry("/"), guest, "/")).toEqual({ kind: "allow" });
  });

  it("sends members away from sign-in and sign-up, to a same-origin redirect only", () => {
    expect(guardRoute(entry("/sign-in"), free, "/sign-in?redirect=%2Fadmin%2Fusers")).toEqual({
      kind: "continue",
      to: "/admin/users",
    });
    expect(guardRoute(entry("/sign-in"), free, "/sign-in?redirect=https://evil.example")).toEqual({
      kind: "continue",
      to: "/",
    });
    expect(guardRoute(entry("/sign-up"), guest, "/sign-up")).toEqual({ kind: "allow" });
    expect(guardRoute(entry("/sign-in"), null, "/sign-in")).toEqual({ kind: "allow" });
  });
});

describe("safeRedirect", () => {
  it("keeps same-origin paths and refuses everything else", () => {
    expect(safeRedirect("/chats?x=1")).toBe("/chats?x=1");
    for (const unsafe of [
      "//evil.example",
      "https://evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      42,
      null,
    ]) {
      expect(safeRedirect(unsafe)).toBe("/");
    }
  });
});

describe("the way into a chat (issue 9)", () => {
  it("opens a chatbot's profile to signed-out visitors and guests", () => {
    const profile = entryForPath("/chatbot/abc");
    expect(profile?.path).toBe("/chatbot/$characterId");
    for (const viewer of [null, guest, free]) {
      expect(guardRoute(profile, viewer, "/chatbot/abc")).toEqual({ kind: "allow" });
    }
  });

  it("matches a URL to the entry the router would pick: static segments before params", () => {
    expect(entryForPath("/chatbot/create")?.path).toBe("/chatbot/create");
    expect(entryForPath("/chat/a/b?x=1")?.path).toBe("/chat/$characterId/$conversationId");
    expect(entryForPath("/nowhere/at/all")).toBeUndefined();
  });

  it("knows where a guest session can go, so Continue as guest never loops back to sign-in", () => {
    for (const href of ["/", "/chat/a", "/chatbot/a", "/chatbot/create", "/personas", "/nope"]) {
      expect(guestCanReach(href), href).toBe(true);
    }
    for (const href of ["/favorites", "/my-chatbots", "/admin/users", "/settings"]) {
      expect(guestCanReach(href), href).toBe(false);
    }
  });
});

describe("route table", () => {
  it("lists each path once", () => {
    const paths = routeTable.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("keeps the spec's permissions as data", () => {
    expect(entry("/chat/$characterId")).toMatchObject({ layout: "noFooter", permission: "view_chat" });
    expect(entry("/my-chatbots")).toMatchObject({ login: true, permission: "view_my_chat_bots" });
    expect(entry("/chatbot/edit/$characterId")).toMatchObject({
      login: true,
      permission: "create_character",
    });
    expect(entry("/report/$characterId")).toMatchObject({ permission: "report_character" });
    expect(entry("/admin/reviews")).toMatchObject({ login: true });
    expect(entry("/admin/reviews").permission).toBeUndefined();
  });

  it("has screens only for the pages that exist", () => {
    const withScreens = routeTable.filter((route) => route.screen).map((route) => route.path);
    expect(withScreens.sort()).toEqual([
      "/",
      "/2257",
      "/accessDenied",
      "/admin/ads",
      "/admin/billing",
      "/admin/models",
      "/admin/reviews",
      "/admin/users",
      "/apps/android",
      "/blocked-creators",
      "/character/create",
      "/character/edit/$characterId",
      "/chat/$characterId",
      "/chat/$characterId/$conversationId",
      "/chatbot/$characterId",
      "/chatbot/create",
      "/chatbot/create/$draftId",
      "/chatbot/edit/$characterId",
      "/chatbots/drafts",
      "/chats",
      "/chats/$characterId",
      "/checkout",
      "/checkout/3ds-complete",
      "/checkout/success",
      "/contribute",
      "/creator/$username",
      "/creators/leaderboard",
      "/download",
      "/easter-giveaway",
      "/external",
      "/external/signup",
      "/favorites",
      "/forgot-password",
      "/link/$pledgeService",
      "/link/$pledgeService/$transientId",
      "/lorebooks",
      "/lorebooks/$lorebookId",
      "/lorebooks/new",
      "/manage-subscription",
      "/my-characters",
      "/my-chatbots",
      "/my-chatbots/drafts",
      "/onboarding",
      "/partner",
      "/personas",
      "/personas/create",
      "/personas/edit/$personaId",
      "/plan-comparison/$frequency",
      "/pledge/welcome",
      "/portal",
      "/privacy",
      "/profile",
      "/recommended",
      "/recommended/mine",
      "/refund",
      "/report",
      "/report/$characterId",
      "/reset-password",
      "/sale",
      "/settings",
      "/sign-in",
      "/sign-up",
      "/subscribe",
      "/subscribe-crypto",
      "/subscribe/$frequency",
      "/subscribeOld",
      "/terms",
      "/unlock-sign-in",
      "/update-email",
      "/user-not-found",
      "/welcome",
    ]);
  });
});

describe("visibleNav", () => {
  const labels = (me: Me | null) =>
    visibleNav(me).flatMap((section) => section.items.map((item) => item.label));

  it("filters the navigation by permission", () => {
    expect(labels(null)).toEqual(["Home", "Recommended", "Leaderboard"]);
    expect(labels(free)).toEqual([
      "Home",
      "Chats",
      "Create",
      "My Chatbots",
      "Favorites",
      "Recommended",
      "Personas",
      "Lorebooks",
      "Leaderboard",
      "Blocked creators",
    ]);
    expect(labels(guest)).toEqual(["Home", "Recommended", "Leaderboard"]);
    expect(labels(admin)).toEqual([
      "Home",
      "Chats",
      "Create",
      "My Chatbots",
      "Favorites",
      "Recommended",
      "Personas",
      "Lorebooks",
      "Leaderboard",
      "Blocked creators",
      "Users",
      "Reviews",
      "Models",
      "Billing",
      "Ads",
    ]);
    const reader = user({ permissions: ["site_access", "view_chat"] });
    expect(labels(reader)).toEqual([
      "Home",
      "Chats",
      "Favorites",
      "Recommended",
      "Lorebooks",
      "Leaderboard",
      "Blocked creators",
    ]);
  });
});

describe("onboarding in the guard (accounts-billing-admin §2.2)", () => {
  const unnamed = user({ username: null });

  it("sends a member without a username to /welcome from any other page", () => {
    for (const path of ["/", "/my-chatbots", "/chats", "/profile", "/sign-in"]) {
      expect(guardRoute(entry(path), unnamed, path)).toEqual({ kind: "continue", to: "/welcome" });
    }
    const unnamedAdmin = user({
      username: null,
      is_admin: true,
      permissions: [...memberPermissions, "admin"],
    });
    expect(guardRoute(entry("/admin/users"), unnamedAdmin, "/admin/users")).toEqual({
      kind: "continue",
      to: "/welcome",
    });
  });

  it("lets them open onboarding itself and the account and legal pages", () => {
    for (const path of [
      "/welcome",
      "/onboarding",
      "/user-not-found",
      "/update-email",
      "/reset-password",
      "/unlock-sign-in",
      "/terms",
      "/2257",
    ]) {
      expect(guardRoute(entry(path), unnamed, `${path}?x=1`)).toEqual({ kind: "allow" });
    }
  });

  it("treats an account from the hosted login provider or a partner token like any member", () => {
    // Neither brings a username of its own (a partner's may have been taken): both choose one.
    const relay = user({ username: null, email: "x1@privaterelay.example" });
    expect(guardRoute(entry("/"), relay, "/")).toEqual({ kind: "continue", to: "/welcome" });
    expect(guardRoute(entry("/update-email"), relay, "/update-email")).toEqual({ kind: "allow" });
    // An external sign-up has its username from the start, so it goes where it asked.
    expect(guardRoute(entry("/external"), user({ username: "casey_x" }), "/external")).toEqual({
      kind: "allow",
    });
  });

  it("leaves members with a username, guests and the signed out alone", () => {
    expect(guardRoute(entry("/"), free, "/")).toEqual({ kind: "allow" });
    expect(guardRoute(entry("/"), guest, "/")).toEqual({ kind: "allow" });
    expect(guardRoute(entry("/"), null, "/")).toEqual({ kind: "allow" });
    expect(guardRoute(entry("/sign-in"), null, "/sign-in")).toEqual({ kind: "allow" });
  });

  it("shows a restricted account its restriction page, not onboarding", () => {
    const restricted = user({ username: null, permissions: ["restriction_complete"] });
    expect(guardRoute(entry("/"), restricted, "/").kind).toBe("restricted");
    expect(guardRoute(entry("/welcome"), restricted, "/welcome").kind).toBe("restricted");
  });

  it("keeps the navigation a member will have while they choose a username", () => {
    const labels = (me: Me) => visibleNav(me).flatMap((section) => section.items.map((item) => item.label));
    expect(labels(unnamed)).toEqual(labels(free));
  });
});
