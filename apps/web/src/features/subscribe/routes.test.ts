import type { Me } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { guardRoute } from "../../routes/guard.ts";
import { entryForPath } from "../../routes/table.ts";

/** Who reaches the subscribe pages and the portal (accounts-billing-admin §2.1, §6). */
describe("subscribe and portal routes", () => {
  const member: Me = {
    id: "u1",
    email: "ada@example.com",
    name: "Ada",
    username: "ada",
    avatar_url: null,
    role: "free",
    status: "inactive",
    restriction: "none",
    is_guest: false,
    is_admin: false,
    permissions: ["site_access", "view_chat"],
    context_tokens: 2048,
    created_at: "2025-01-01T00:00:00Z",
  };
  const guest: Me = { ...member, is_guest: true, email: null, username: null };
  const decide = (path: string, me: Me | null) => guardRoute(entryForPath(path), me, path).kind;

  it("the subscribe page, at either frequency, and the portal need an account", () => {
    for (const path of [
      "/subscribe",
      "/subscribe/monthly",
      "/subscribe/annually",
      "/portal",
      "/manage-subscription",
    ]) {
      expect(decide(path, null), path).toBe("signIn");
      expect(decide(path, guest), path).toBe("signIn");
      expect(decide(path, member), path).toBe("allow");
    }
  });

  it("the comparison, the older layout, the crypto page and the refund policy are open", () => {
    for (const path of [
      "/plan-comparison/monthly",
      "/plan-comparison/annually",
      "/subscribeOld",
      "/subscribe-crypto",
      "/refund",
    ]) {
      expect(decide(path, null), path).toBe("allow");
      expect(decide(path, member), path).toBe("allow");
    }
  });
});
