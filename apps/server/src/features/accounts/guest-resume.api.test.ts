import type { GuestKey, Me } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { api, personAs } from "../characters/test-support.ts";

/** The guest id in local storage (issue 17 item 5): a guest whose cookie is cleared comes back as itself. */
describe.each(drivers)("guest resume on %s", (driver) => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_GUEST_SIGNINS_PER_DAY: "0" } });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("gives a guest its key, and the id and key start a session for the same guest without the cookie", async () => {
    const guest = await personAs(h, "guest");
    const res = await api(h).get("/api/guest/key", guest);
    expect(res.statusCode, res.body).toBe(200);
    const key = res.json<GuestKey>();
    expect(key.guest_id).toBe(guest.id);

    const resumed = await api(h).post("/api/guest/resume", key);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json<Me>()).toMatchObject({ id: guest.id, is_guest: true });
    const cookie = String(resumed.headers["set-cookie"]).split(";")[0];
    const me = await api(h).get("/api/me", { role: "guest", id: guest.id, cookie });
    expect(me.json<Me>().id).toBe(guest.id);
  });

  it("refuses a wrong key, a member's id and a key for nobody; only guests have a key", async () => {
    const guest = await personAs(h, "guest");
    const key = (await api(h).get("/api/guest/key", guest)).json<GuestKey>();
    const other = await personAs(h, "guest");
    const wrong = await api(h).post("/api/guest/resume", { guest_id: other.id, key: key.key });
    expect(wrong.statusCode).toBe(401);
    expect(
      (await api(h).post("/api/guest/resume", { guest_id: key.guest_id, key: "0".repeat(64) })).statusCode,
    ).toBe(401);
    expect((await api(h).post("/api/guest/resume", { guest_id: key.guest_id, key: "nope" })).statusCode).toBe(
      400,
    );
    const member = await personAs(h, "free");
    expect((await api(h).get("/api/guest/key", member)).statusCode).toBe(403);
    expect((await api(h).get("/api/guest/key")).statusCode).toBe(401);
  });
});
