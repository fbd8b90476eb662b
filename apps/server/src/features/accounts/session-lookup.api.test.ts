import type { Me } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { sessions } from "./schema.ts";
import { sessionLookupOf } from "./session-lookup.ts";

const ORIGIN = {
  origin: "http://localhost:3000",
  host: "localhost:3000",
  "content-type": "application/json",
};
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The one-query session lookup (issue 15 item 4) answers exactly when better-auth would, and
 * caches nothing: a sign-out, a changed role or an expired session counts on the next request.
 */
describe.each(drivers)("the session lookup on %s", (driver) => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ driver });
  });
  afterAll(async () => h.stop());

  const me = (cookie: string) => h.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
  const lookup = (cookie: string) => sessionLookupOf(h.auth)?.({ cookie });

  it("finds a signed-in member in one query, and nobody for a forged or missing cookie", async () => {
    const user = await h.signUp({ name: "Fast" });
    expect((await lookup(user.cookie))?.id).toBe(user.id);
    expect((await me(user.cookie)).json<Me>().id).toBe(user.id);
    // The token without its signature, or signed with another secret, is no session.
    const [name, value] = user.cookie.split("=") as [string, string];
    const token = decodeURIComponent(value).split(".")[0];
    const forged = `${name}=${encodeURIComponent(`${token}.${"A".repeat(43)}=`)}`;
    expect(await lookup(forged)).toBeUndefined();
    expect((await me(forged)).statusCode).toBe(401);
    expect(await lookup("other=1")).toBeUndefined();
  });

  it("sees a role change and a sign-out on the very next request", async () => {
    const user = await h.signUp();
    expect((await me(user.cookie)).json<Me>().role).toBe("free");
    await updateUser(h.database.db, user.id, { role: "basic", status: "active" });
    expect((await me(user.cookie)).json<Me>().role).toBe("basic");
    const out = await h.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { ...ORIGIN, cookie: user.cookie },
      payload: "{}",
    });
    expect(out.statusCode).toBe(200);
    expect(await lookup(user.cookie)).toBeUndefined();
    expect((await me(user.cookie)).statusCode).toBe(401);
  });

  it("leaves expired sessions and the daily refresh to better-auth", async () => {
    const user = await h.signUp();
    const db = h.database.db;
    // Two days into its 30: better-auth moves the expiry on, so the fast path steps aside.
    const due = new Date(Date.now() + 28 * DAY_MS);
    await db.update(sessions).set({ expiresAt: due }).where(eq(sessions.userId, user.id));
    expect(await lookup(user.cookie)).toBeUndefined();
    expect((await me(user.cookie)).statusCode).toBe(200);
    const [refreshed] = await db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(refreshed?.expiresAt.getTime()).toBeGreaterThan(due.getTime() + DAY_MS);
    expect((await lookup(user.cookie))?.id).toBe(user.id);

    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    expect(await lookup(user.cookie)).toBeUndefined();
    expect((await me(user.cookie)).statusCode).toBe(401);
  });
});
