import type { Me } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { authCallsActive, quietAuthStorage, setAuthIdleMs, withinAuth } from "./auth-storage.ts";

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
  let idleMs: number;
  beforeAll(async () => {
    h = await startTestHearth({ driver });
    // Only the tests quiet the storages here, except where a test shortens the idle time itself:
    // under CI's load two steps can be more than the default 2 s apart.
    idleMs = setAuthIdleMs(3_600_000);
  });
  afterAll(async () => {
    setAuthIdleMs(idleMs);
    await h.stop();
  });

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

  it("quiets them by itself once the idle time has passed after the last call", async () => {
    setAuthIdleMs(20);
    try {
      await h.signInAsGuest();
      expect(authCallsActive()).toBe(0);
      await vi.waitFor(async () => expect(await promisesTracked()).toBe(false), {
        timeout: 10_000,
        interval: 20,
      });
    } finally {
      setAuthIdleMs(3_600_000);
    }
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
