import type { ApiError, AppConfig, Me, PasswordResetLink } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { resetLinkIn, startSmtp } from "../../../test/smtp.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";
import { users } from "./schema.ts";

/**
 * The update-email page's call, administrators' one-time reset links, and reset links by e-mail
 * through a local SMTP server this test starts (SMTP_URL).
 */

describe("e-mail and password resets", () => {
  let h: TestHearth;
  let bare: TestHearth;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let a: ReturnType<typeof api>;
  beforeAll(async () => {
    smtp = await startSmtp();
    h = await startTestHearth({
      env: { SMTP_URL: smtp.url, HEARTH_MAIL_FROM: "Hearth <hearth@example.com>" },
    });
    bare = await startTestHearth();
    a = api(h);
  });
  afterAll(async () => {
    await h.stop();
    await bare.stop();
    await smtp.close();
  });

  const authPost = (on: TestHearth, url: string, body: unknown, cookie?: string) =>
    on.app.inject({
      method: "POST",
      url,
      headers: {
        "content-type": "application/json",
        origin: "http://localhost:3000",
        ...(cookie ? { cookie } : {}),
      },
      payload: JSON.stringify(body),
    });
  const signIn = (email: string, password: string) =>
    authPost(h, "/api/auth/sign-in/email", { email, password });
  const tokenOf = (url: string) => new URL(url).searchParams.get("token") ?? "";

  describe("reset by e-mail (SMTP_URL set)", () => {
    it("tells the web that members may ask for a reset, and a bare install that they may not", async () => {
      expect((await a.get("/api/config")).json<AppConfig>().auth.password_reset).toBe(true);
      expect((await api(bare).get("/api/config")).json<AppConfig>().auth.password_reset).toBe(false);
      const refused = await authPost(bare, "/api/auth/request-password-reset", { email: "x@example.com" });
      expect(refused.statusCode).toBe(400);
    });

    it("mails a one-time link that sets a new password and ends every session", async () => {
      const member = await h.signUp({ name: "Forgetful" });
      // An unknown address answers the same and sends nothing: the next mail is the member's.
      const unknown = await authPost(h, "/api/auth/request-password-reset", { email: "nobody@example.com" });
      expect(unknown.statusCode).toBe(200);
      const asked = await authPost(h, "/api/auth/request-password-reset", { email: member.email });
      expect(asked.statusCode, asked.body).toBe(200);
      const mail = await smtp.next();
      expect(mail.to).toEqual([member.email]);
      const link = resetLinkIn(mail.body);
      expect(link.pathname).toBe("/reset-password");

      const reset = await authPost(h, "/api/auth/reset-password", {
        token: link.searchParams.get("token"),
        newPassword: "a brand new passphrase",
      });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(
        (await a.get("/api/me", { role: "free", id: member.id, cookie: member.cookie })).statusCode,
      ).toBe(401);
      expect((await signIn(member.email, "correct horse battery")).statusCode).toBe(401);
      expect((await signIn(member.email, "a brand new passphrase")).statusCode).toBe(200);
      const again = await authPost(h, "/api/auth/reset-password", {
        token: link.searchParams.get("token"),
        newPassword: "yet another passphrase",
      });
      expect(again.statusCode).toBe(400);
    });
  });

  describe("administrators' reset links", () => {
    it("issues a one-time link for a member, which works once", async () => {
      const admin = await personAs(h, "admin");
      const member = await h.signUp({ name: "Locked Out" });
      const res = await a.post(`/api/admin/users/${member.id}/password-reset-link`, {}, admin);
      expect(res.statusCode, res.body).toBe(201);
      const link = res.json<PasswordResetLink>();
      expect(new URL(link.url).pathname).toBe("/reset-password");
      expect(Date.parse(link.expires_at)).toBeGreaterThan(Date.now());
      const token = tokenOf(link.url);
      const reset = await authPost(h, "/api/auth/reset-password", {
        token,
        newPassword: "chosen by the member",
      });
      expect(reset.statusCode, reset.body).toBe(200);
      expect((await signIn(member.email, "chosen by the member")).statusCode).toBe(200);
      const reused = await authPost(h, "/api/auth/reset-password", {
        token,
        newPassword: "someone else's try",
      });
      expect(reused.statusCode).toBe(400);
    });

    it("answers 404 for an unknown account and 409 for a guest", async () => {
      const admin = await personAs(h, "admin");
      const guest = await personAs(h, "guest");
      const unknown = "00000000-0000-4000-8000-000000000000";
      expect((await a.post(`/api/admin/users/${unknown}/password-reset-link`, {}, admin)).statusCode).toBe(
        404,
      );
      expect((await a.post(`/api/admin/users/${guest.id}/password-reset-link`, {}, admin)).statusCode).toBe(
        409,
      );
    });

    it.each<[Role, number]>([
      ["signed out", 401],
      ["guest", 403],
      ["free", 403],
      ["premium", 403],
      ["limited", 403],
      ["restricted", 403],
    ])("refuses %s (%i)", async (role, status) => {
      const who = await personAs(h, role);
      const target = await personAs(h, "free");
      const res = await a.post(`/api/admin/users/${target.id}/password-reset-link`, {}, who);
      expect(res.statusCode).toBe(status);
    });
  });

  describe("PUT /api/users/me/email (the update-email page)", () => {
    const relayed = async (): Promise<Person> => {
      const who = await personAs(h, "free");
      const relay = `${who.id?.slice(0, 8)}@privaterelay.appleid.com`;
      await h.database.db
        .update(users)
        .set({ email: relay })
        .where(eq(users.id, who.id ?? ""));
      return who;
    };
    const put = (who: Person, email: string) => a.put("/api/users/me/email", { email }, who);
    const fieldMessage = (res: { json: <T>() => T }) => {
      const error = res.json<ApiError>();
      return error.issues?.[0]?.message ?? error.message;
    };

    it.each([
      ["", "Email can not be empty"],
      ["not-an-address", "Please enter a valid email address"],
    ])("refuses %j: %s", async (email, expected) => {
      const res = await put(await relayed(), email);
      expect(res.statusCode).toBe(400);
      expect(fieldMessage(res)).toBe(expected);
    });

    it("replaces a private-relay address (lowercased), once", async () => {
      const who = await relayed();
      const res = await put(who, "Real.Person@Example.com");
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Me>().email).toBe("real.person@example.com");
      expect((await put(who, "second@example.com")).statusCode).toBe(409);
    });

    it("refuses an address another account uses", async () => {
      const taken = await h.signUp({ name: "Holder" });
      const res = await put(await relayed(), taken.email);
      expect(res.statusCode).toBe(400);
      expect(fieldMessage(res)).toBe("This email address is already used by another account.");
    });

    it.each<[Role, number]>([
      ["signed out", 401],
      ["guest", 403],
      ["free", 409],
      ["admin", 409],
      ["restricted", 403],
    ])("answers %s with %i when nothing needs replacing", async (role, status) => {
      expect((await put(await personAs(h, role), "fresh@example.com")).statusCode).toBe(status);
    });
  });
});
