import { randomUUID } from "node:crypto";
import type { ActiveSessionList, ApiError, AuditLogPage, ConversationCreated, Me } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { IMPERSONATING_MESSAGE } from "./impersonation.ts";
import { sessions } from "./schema.ts";

/** Administrators view the site as a user: who may, what is refused while viewing, stop, the audit log. */

/** A browser's cookie jar, enough for these tests: Set-Cookie in, Cookie header out. */
class Jar {
  private cookies = new Map<string, string>();
  constructor(header = "") {
    for (const pair of header.split("; ").filter(Boolean)) {
      const at = pair.indexOf("=");
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  take(setCookie: string | string[] | undefined): this {
    for (const line of [setCookie ?? []].flat()) {
      const [pair = "", ...attrs] = line.split("; ");
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      const gone =
        !value || attrs.some((a) => /^max-age=0$/i.test(a) || /^expires=Thu, 01 Jan 1970/i.test(a));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return this;
  }
  has(part: string): boolean {
    return [...this.cookies.keys()].some((name) => name.includes(part));
  }
  get header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

describe.each(drivers)("viewing the site as a user on %s", (driver) => {
  let h: TestHearth;
  let admin: { cookie: string; id: string };
  beforeAll(async () => {
    h = await startTestHearth({ driver });
    admin = await h.signUp({ name: "Ops", username: "ops_admin" });
    await updateUser(h.database.db, admin.id, { is_admin: true });
  });
  afterAll(async () => {
    await h.stop();
  });

  const send = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, cookie?: string, body?: unknown) =>
    h.app.inject({
      method,
      url,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  const member = (name = "Member") => h.signUp({ name, username: `m_${randomUUID().slice(0, 8)}` });
  /** The admin opens a view of `userId`: answers the browser's jar afterwards. */
  const viewAs = async (userId: string, who = admin) => {
    const res = await send("POST", `/api/admin/users/${userId}/impersonate`, who.cookie);
    expect(res.statusCode, res.body).toBe(200);
    return { jar: new Jar(who.cookie).take(res.headers["set-cookie"]), me: res.json<Me>() };
  };
  const auditOf = async (targetId: string) =>
    (await send("GET", `/api/admin/audit-log?target_id=${targetId}`, admin.cookie)).json<AuditLogPage>()
      .entries;

  it("is for administrators only: signed out 401, guest, free, subscriber, creator and restricted 403", async () => {
    const target = await member();
    const url = `/api/admin/users/${target.id}/impersonate`;
    expect((await send("POST", url)).statusCode).toBe(401);
    const guest = await h.signInAsGuest();
    const free = await member();
    const subscriber = await member();
    await updateUser(h.database.db, subscriber.id, { role: "premium", status: "active" });
    const creator = await member();
    await insertTestCharacter(h.database.db, creator.id);
    const restricted = await member();
    await updateUser(h.database.db, restricted.id, { restriction: "complete" });
    for (const who of [guest, free, subscriber, creator]) {
      const res = await send("POST", url, who.cookie);
      expect(res.statusCode).toBe(403);
      expect(res.json<ApiError>().code).toBe("forbidden");
      expect(new Jar().take(res.headers["set-cookie"]).has("session")).toBe(false);
    }
    const res = await send("POST", url, restricted.cookie);
    expect([res.statusCode, res.json<ApiError>().code]).toEqual([403, "restricted"]);
    expect(await auditOf(target.id)).toEqual([]);
  });

  it("refuses the administrator themselves, other administrators, guests and unknown ids", async () => {
    const other = await member("Other admin");
    await updateUser(h.database.db, other.id, { is_admin: true });
    const guest = await h.signInAsGuest();
    const refusal = async (id: string) => {
      const res = await send("POST", `/api/admin/users/${id}/impersonate`, admin.cookie);
      return [res.statusCode, res.json<ApiError>().message];
    };
    expect(await refusal(admin.id)).toEqual([403, expect.stringMatching(/as yourself/)]);
    expect(await refusal(other.id)).toEqual([403, expect.stringMatching(/another administrator/)]);
    expect(await refusal(guest.id)).toEqual([403, expect.stringMatching(/guest/)]);
    expect(await refusal(randomUUID())).toEqual([404, "No such user."]);
    expect(await auditOf(other.id)).toEqual([]);
  });

  it("is not open to a restricted administrator, and a view ends once its administrator is restricted", async () => {
    const restrictedAdmin = await h.signUp({ name: "Ops Two", username: `o_${randomUUID().slice(0, 8)}` });
    await updateUser(h.database.db, restrictedAdmin.id, { is_admin: true });
    const target = await member("Bea");
    const { jar } = await viewAs(target.id, restrictedAdmin);
    expect((await send("GET", "/api/me", jar.header)).statusCode).toBe(200);
    await updateUser(h.database.db, restrictedAdmin.id, { restriction: "limited" });
    // The administrator's rights are the derived ones: a limited account has none, so the view ends.
    expect((await send("GET", "/api/me", jar.header)).statusCode).toBe(401);
    const again = await send("POST", `/api/admin/users/${target.id}/impersonate`, restrictedAdmin.cookie);
    expect(again.statusCode).toBe(403);
  });

  it("shows the site as the user, says who is viewing, and audits the start", async () => {
    const target = await member("Ada");
    const bot = await insertTestCharacter(h.database.db, admin.id);
    const chat = (
      await send("POST", "/api/conversations", target.cookie, { character_id: bot.id })
    ).json<ConversationCreated>();
    const { jar, me } = await viewAs(target.id);
    expect(me).toMatchObject({ id: target.id, impersonated_by: { id: admin.id, name: "Ops" } });
    expect(jar.has("admin_session")).toBe(true);
    const seen = await send("GET", "/api/me", jar.header);
    expect(seen.json<Me>()).toMatchObject({
      id: target.id,
      is_admin: false,
      impersonated_by: { id: admin.id },
    });
    // The user's own things read as theirs.
    const messages = await send("GET", `/api/conversations/${chat.conversation.id}/messages`, jar.header);
    expect(messages.statusCode).toBe(200);
    // The user's own session says nobody is viewing.
    expect((await send("GET", "/api/me", target.cookie)).json<Me>().impersonated_by).toBeNull();
    const [entry] = await auditOf(target.id);
    expect(entry).toMatchObject({
      action: "user.impersonate",
      actor_user_id: admin.id,
      target_type: "user",
      target_id: target.id,
    });
    expect(Date.now() - Date.parse(entry?.createdAt ?? "")).toBeLessThan(60_000);
  });

  it("refuses every write while viewing with 403 impersonating, a chat message included", async () => {
    const target = await member();
    const bot = await insertTestCharacter(h.database.db, admin.id);
    const chat = (
      await send("POST", "/api/conversations", target.cookie, { character_id: bot.id })
    ).json<ConversationCreated>();
    const { jar } = await viewAs(target.id);
    const writes: [Parameters<typeof send>[0], string, unknown?][] = [
      ["POST", "/api/generate", { conversation_id: chat.conversation.id, action: "send", content: "Hi" }],
      ["POST", "/api/conversations", { character_id: bot.id }],
      ["PATCH", "/api/users/me", { name: "Renamed" }],
      ["DELETE", "/api/users"],
      ["DELETE", `/api/conversations/${chat.conversation.id}`],
      ["POST", "/api/users/me/sessions/revoke-others"],
      ["POST", "/api/auth/change-password", { currentPassword: "x", newPassword: "y" }],
      ["POST", `/api/admin/users/${target.id}/impersonate`],
    ];
    for (const [method, url, body] of writes) {
      const res = await send(method, url, jar.header, body);
      expect([url, res.statusCode, res.json<ApiError>()]).toEqual([
        url,
        403,
        { code: "impersonating", message: IMPERSONATING_MESSAGE },
      ]);
    }
    // Nothing was written: the chat still holds only its greeting, the name is unchanged.
    const messages = await send("GET", `/api/conversations/${chat.conversation.id}/messages`, target.cookie);
    expect(messages.json<{ messages: unknown[] }>().messages).toHaveLength(1);
    expect((await send("GET", "/api/me", target.cookie)).json<Me>().name).toBe("Member");
  });

  it("keeps the view out of the user's own sessions list", async () => {
    const target = await member();
    const { jar } = await viewAs(target.id);
    const own = (await send("GET", "/api/users/me/sessions", target.cookie)).json<ActiveSessionList>();
    expect(own.sessions).toHaveLength(1);
    expect(own.sessions[0]?.current).toBe(true);
    // The administrator may look at the list while viewing; their view is not in it.
    const viewed = await send("GET", "/api/users/me/sessions", jar.header);
    expect(viewed.statusCode).toBe(200);
    expect(viewed.json<ActiveSessionList>().sessions.map((s) => s.id)).toEqual(own.sessions.map((s) => s.id));
  });

  it("stop ends the view, signs the administrator back in, and is audited", async () => {
    const target = await member();
    const { jar } = await viewAs(target.id);
    const viewing = jar.header;
    const res = await send("POST", "/api/admin/impersonation/stop", viewing);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Me>()).toMatchObject({ id: admin.id, is_admin: true, impersonated_by: null });
    jar.take(res.headers["set-cookie"]);
    expect(jar.has("admin_session")).toBe(false);
    expect((await send("GET", "/api/me", jar.header)).json<Me>()).toMatchObject({ id: admin.id });
    // The administrator can act again, and the viewing session is gone for good.
    expect((await send("PATCH", "/api/users/me", jar.header, { name: "Ops" })).statusCode).toBe(200);
    expect(
      (await send("GET", "/api/me", viewing.replace(/hearth\.admin_session=[^;]*;?\s*/, ""))).statusCode,
    ).toBe(401);
    const actions = (await auditOf(target.id)).map((e) => [e.action, e.actor_user_id]);
    expect(actions).toEqual([
      ["user.impersonation_stop", admin.id],
      ["user.impersonate", admin.id],
    ]);
    // A second stop has nothing to stop.
    const again = await send("POST", "/api/admin/impersonation/stop", jar.header);
    expect(again.statusCode).toBe(400);
  });

  it("stop refuses a forged administrator cookie", async () => {
    const target = await member();
    const { jar } = await viewAs(target.id);
    const forged = jar.header.replace(/(hearth\.admin_session=)([^;.]+)/, "$1x$2");
    const res = await send("POST", "/api/admin/impersonation/stop", forged);
    expect(res.statusCode).toBe(400);
    expect((await send("GET", "/api/me", forged)).json<Me>().id).toBe(target.id);
  });

  it("lets the administrator stop viewing a restricted account", async () => {
    const target = await member();
    await updateUser(h.database.db, target.id, { restriction: "complete" });
    const { jar } = await viewAs(target.id);
    expect((await send("GET", "/api/me", jar.header)).json<Me>().restriction).toBe("complete");
    const res = await send("POST", "/api/admin/impersonation/stop", jar.header);
    expect([res.statusCode, res.json<Me>().id]).toEqual([200, admin.id]);
    // The restricted account itself, with nothing to stop, is told it is restricted.
    const own = await send("POST", "/api/admin/impersonation/stop", target.cookie);
    expect([own.statusCode, own.json<ApiError>().code]).toEqual([403, "restricted"]);
  });

  it("ends the view after an hour even if the session was extended; the admin signs in again", async () => {
    const target = await member();
    const { jar } = await viewAs(target.id);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await h.database.db
      .update(sessions)
      .set({ createdAt: twoHoursAgo, expiresAt: new Date(Date.now() + 86400_000) })
      .where(eq(sessions.userId, target.id));
    // (The member's own session was touched too; only the view ends.)
    expect((await send("GET", "/api/me", jar.header)).statusCode).toBe(401);
    expect((await send("GET", "/api/me", target.cookie)).statusCode).toBe(200);
    // The kept cookie opens nothing once the view is gone.
    const res = await send("POST", "/api/admin/impersonation/stop", jar.header);
    expect(res.statusCode).toBe(400);
    expect(new Jar(jar.header).take(res.headers["set-cookie"]).has("admin_session")).toBe(false);
  });

  it("after signing out of the view, the kept cookie cannot sign anyone in as the administrator", async () => {
    const target = await member();
    const { jar } = await viewAs(target.id);
    const out = await send("POST", "/api/auth/sign-out", jar.header, {});
    expect(out.statusCode).toBe(200);
    jar.take(out.headers["set-cookie"]);
    expect(jar.has("admin_session")).toBe(true);
    // Someone else signs in on the same browser, and tries the kept cookie.
    const next = await member("Next");
    const withNext = `${jar.header}; ${next.cookie}`;
    const res = await send("POST", "/api/admin/impersonation/stop", withNext);
    expect(res.statusCode).toBe(400);
    expect((await send("GET", "/api/me", withNext)).json<Me>().id).toBe(next.id);
  });
});
