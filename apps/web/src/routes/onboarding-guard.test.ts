import type { Me } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { usernameProblem } from "../features/onboarding/username-check.ts";
import { guardRoute } from "./guard.ts";
import { routeEntry } from "./table.ts";

const member = (overrides: Partial<Me> = {}): Me => ({
  id: "u1",
  email: "ada@example.com",
  name: "Ada",
  username: null,
  avatar_url: null,
  role: "free",
  status: "active",
  restriction: "none",
  is_guest: false,
  is_admin: false,
  permissions: ["site_access", "view_chat", "view_my_chat_bots", "create_character", "report_character"],
  context_tokens: 2048,
  created_at: "2025-01-01T00:00:00Z",
  ...overrides,
});

const entry = (path: string) => {
  const found = routeEntry(path);
  if (!found) throw new Error(`no table entry for ${path}`);
  return found;
};

describe("onboarding in the guard", () => {
  it("sends a member without a username to /welcome from any page", () => {
    for (const path of ["/", "/my-chatbots", "/chats"]) {
      expect(guardRoute(entry(path), member(), path)).toEqual({ kind: "continue", to: "/welcome" });
    }
  });

  it("lets them open onboarding itself and the account and legal pages", () => {
    for (const path of ["/welcome", "/user-not-found", "/update-email", "/reset-password", "/terms"]) {
      expect(guardRoute(entry(path), member(), `${path}?x=1`)).toEqual({ kind: "allow" });
    }
  });

  it("leaves members with a username, guests and the signed out alone", () => {
    expect(guardRoute(entry("/"), member({ username: "ada" }), "/")).toEqual({ kind: "allow" });
    expect(guardRoute(entry("/"), member({ is_guest: true, email: null }), "/")).toEqual({ kind: "allow" });
    expect(guardRoute(entry("/"), null, "/")).toEqual({ kind: "allow" });
  });

  it("shows a restricted account its restriction page, not onboarding", () => {
    const restricted = member({ permissions: ["restriction_complete"] });
    expect(guardRoute(entry("/"), restricted, "/").kind).toBe("restricted");
  });
});

describe("usernameProblem (accounts-billing-admin §5)", () => {
  it.each([
    ["", "Username can't be empty"],
    ["ab", "Username is too short"],
    ["abc", "Username is invalid"],
    ["a".repeat(21), "Username should be less then 20 characters"],
    ["bad name", "Username contain invalid characters"],
    ["good_name", null],
  ])("%j: %s", (value, expected) => {
    expect(usernameProblem(value)).toBe(expected);
  });
});
