import type { Me } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { authCallsActive, quietAuthStorage, withinAuth } from "./auth-storage.ts";

/**
 * While any AsyncLocalStorage is enabled, Node marks every new promise with async ids (and the
 * storage's slot): own symbol properties a promise has only while the hooks are on. So a promise
 * made after a tick shows whether the process pays for them.
 */
async function promisesTracked(): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return Object.getOwnPropertySymbols(Promise.resolve().then(() => {})).length > 0;
}

/** better-auth's storages slow every promise while enabled; Hearth turns them off between its calls. */
describe.each(drivers)("better-auth's async storage on %s", (driver) => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ driver });
  });
  afterAll(async () => h.stop());

  it("goes quiet once no call is under way, and wakes for the next call", async () => {
    const member = await h.signUp({ name: "Quiet" });
    // Signing up ran through better-auth: its storages were enabled, and promises followed.
    expect(authCallsActive()).toBe(0);
    expect(await promisesTracked()).toBe(true);

    expect(quietAuthStorage()).toBeGreaterThanOrEqual(2);
    expect(await promisesTracked()).toBe(false);

    // Ordinary requests do not wake them (the session lookup needs no better-auth call) ...
    const me = await h.app.inject({ method: "GET", url: "/api/me", headers: { cookie: member.cookie } });
    expect(me.json<Me>().id).toBe(member.id);
    expect(await promisesTracked()).toBe(false);

    // ... and better-auth works as before once called again, its context enabled for the call.
    const guest = await h.signInAsGuest();
    expect(guest.id).toBeTruthy();
    const signOut = await h.app.inject({
      method: "POST",
      url: "/api/auth/sign-out",
      headers: { cookie: member.cookie, "content-type": "application/json" },
      payload: "{}",
    });
    expect(signOut.statusCode).toBe(200);
    expect(
      (await h.app.inject({ method: "GET", url: "/api/me", headers: { cookie: member.cookie } })).statusCode,
    ).toBe(401);
    expect(await promisesTracked()).toBe(true);
    expect(quietAuthStorage()).toBeGreaterThanOrEqual(2);
    expect(await promisesTracked()).toBe(false);
  });

  it("is never turned off while a call is under way", async () => {
    await h.signInAsGuest();
    let finish = () => {};
    const held = withinAuth(() => new Promise<void>((resolve) => (finish = resolve)));
    expect(authCallsActive()).toBe(1);
    expect(quietAuthStorage()).toBe(0);
    expect(await promisesTracked()).toBe(true);
    finish();
    await held;
    expect(authCallsActive()).toBe(0);
    expect(quietAuthStorage()).toBeGreaterThanOrEqual(2);
    expect(await promisesTracked()).toBe(false);
  });

  it("keeps the internal adapter's calls inside", async () => {
    const ctx = await h.auth.$context;
    const member = await h.signUp({ name: "Adapter" });
    const found = ctx.internalAdapter.findUserById(member.id);
    expect(authCallsActive()).toBe(1);
    expect((await found)?.id).toBe(member.id);
    expect(authCallsActive()).toBe(0);
  });
});
