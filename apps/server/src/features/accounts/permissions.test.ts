import { accountStatus, type Permission, subscriberRole } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { contextTokens, derivePermissions, effectiveRole, type PermissionSubject } from "./permissions.ts";

const member = (over: Partial<PermissionSubject> = {}): PermissionSubject => ({
  isGuest: false,
  role: "free",
  status: "inactive",
  restriction: "none",
  isAdmin: false,
  ...over,
});

const FREE_SET: Permission[] = [
  "create_character",
  "delete_character",
  "display_ads",
  "personas",
  "report_character",
  "site_access",
  "view_chat",
  "view_my_chat_bots",
];
const MINIMAL_ADDS: Permission[] = ["skip_waiting_room", "memory_manager", "3k_context"];
const BASIC_ADDS: Permission[] = [
  "4k_context",
  "conversation_memory_auto",
  "generation_settings",
  "conversation_images",
  "conversation_images_v2",
  "TTS",
];
const PREMIUM_ADDS: Permission[] = ["priority_queue", "image_training", "8k_context"];

const expected: Record<string, Permission[]> = {
  free: FREE_SET,
  minimal: [...FREE_SET.filter((p) => p !== "display_ads"), ...MINIMAL_ADDS],
  basic: [...FREE_SET.filter((p) => p !== "display_ads"), ...MINIMAL_ADDS, ...BASIC_ADDS],
  premium: [...FREE_SET.filter((p) => p !== "display_ads"), ...MINIMAL_ADDS, ...BASIC_ADDS, ...PREMIUM_ADDS],
};

describe("derivePermissions: every role × status", () => {
  for (const role of subscriberRole.options) {
    for (const status of accountStatus.options) {
      const paid = status === "active" || status === "cancelled";
      it(`${role} / ${status} gets the ${paid ? role : "free"} set`, () => {
        const got = derivePermissions(member({ role, status }));
        expect(got).toEqual([...(expected[paid ? role : "free"] ?? [])].sort());
        expect(effectiveRole({ role, status })).toBe(paid ? role : "free");
      });
    }
  }
});

describe("derivePermissions: special accounts", () => {
  it("a guest may only look around and chat", () => {
    expect(derivePermissions(member({ isGuest: true }))).toEqual(["site_access", "view_chat"]);
    // A guest's stored role never grants paid features.
    expect(derivePermissions(member({ isGuest: true, role: "premium", status: "active" }))).toEqual([
      "site_access",
      "view_chat",
    ]);
  });

  it("an admin holds every feature permission plus admin, without ads", () => {
    const got = derivePermissions(member({ isAdmin: true }));
    expect(got).toContain("admin");
    for (const p of [...MINIMAL_ADDS, ...BASIC_ADDS, ...PREMIUM_ADDS]) expect(got).toContain(p);
    expect(got).not.toContain("display_ads");
  });

  it("restriction_complete and restriction_temporary lock the account to one permission", () => {
    expect(derivePermissions(member({ restriction: "complete", role: "premium", status: "active" }))).toEqual(
      ["restriction_complete"],
    );
    expect(derivePermissions(member({ restriction: "temporary", isAdmin: true }))).toEqual([
      "restriction_temporary",
    ]);
  });

  it("limited access keeps reading and chatting only", () => {
    expect(derivePermissions(member({ restriction: "limited", role: "basic", status: "active" }))).toEqual([
      "site_access",
      "view_chat",
      "limited_access",
    ]);
  });
});

describe("contextTokens", () => {
  const of = (role: "free" | "minimal" | "basic" | "premium") =>
    derivePermissions(member({ role, status: "active" }));

  it("follows the tiers: 2048, 3072, 4096, then 8192 or 16384 by model", () => {
    expect(contextTokens(of("free"))).toBe(2048);
    expect(contextTokens(of("minimal"))).toBe(3072);
    expect(contextTokens(of("basic"))).toBe(4096);
    expect(contextTokens(of("basic"), 16384)).toBe(4096);
    expect(contextTokens(of("premium"))).toBe(8192);
    expect(contextTokens(of("premium"), 16384)).toBe(16384);
  });

  it("an expired premium subscriber falls back to the default", () => {
    expect(contextTokens(derivePermissions(member({ role: "premium", status: "expired" })))).toBe(2048);
  });
});
