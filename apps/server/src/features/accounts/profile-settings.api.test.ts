import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ApiError, DefaultModel, Me, ProfileSettings } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../../test/model.ts";
import { MODEL_NOT_OFFERED } from "./default-model-routes.ts";
import { decryptLlmKey } from "./llm-key.ts";
import { ADULT_CONFIRMATION_NEEDED } from "./profile-rules.ts";
import { users } from "./schema.ts";

/**
 * Profile settings beyond the name (accounts-billing-admin §2.2, §5): highlights and their
 * configured maximum, NSFW with its one-time 18+ confirmation, the external model key (encrypted,
 * never answered), its mode, and the Settings page's default model, for every role.
 */
const KEY = "sk-test-0123456789abcdefWXYZ";

describe.each(drivers)("profile settings on %s", (driver) => {
  let h: TestHearth;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hearth-models-"));
    const file = path.join(dir, "models.json");
    writeFileSync(
      file,
      JSON.stringify({
        models: [
          { id: "tiny", name: "Tiny", backend: { type: "embedded", path: TEST_MODEL_PATH } },
          {
            id: "lab",
            name: "Lab",
            tags: ["experimental"],
            backend: { type: "embedded", path: TEST_MODEL_PATH },
          },
          {
            id: "big",
            name: "Big",
            permission: "8k_context",
            backend: { type: "embedded", path: TEST_MODEL_PATH },
          },
        ],
      }),
    );
    h = await startTestHearth({
      driver,
      env: { HEARTH_MODELS_FILE: file, HEARTH_HIGHLIGHTS_MAX: "40", HEARTH_PROFILE_LAYOUT: "v2" },
    });
  });
  afterAll(async () => {
    await h.stop();
  });

  const call = (method: "GET" | "PATCH" | "PUT", url: string, cookie?: string, body?: unknown) =>
    h.app.inject({
      method,
      url,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
  const patchMe = (cookie: string, body: unknown) => call("PATCH", "/api/users/me", cookie, body);
  const settings = async (cookie: string) =>
    (await call("GET", "/api/users/me/profile", cookie)).json<ProfileSettings>();
  const row = async (id: string) => (await h.database.db.select().from(users).where(eq(users.id, id)))[0];

  it("answers the settings with the configured layout and highlights maximum; guests too, signed-out not", async () => {
    const u = await h.signUp();
    expect(await settings(u.cookie)).toEqual({
      highlights: "",
      highlights_max: 40,
      show_nsfw: false,
      adult_confirmed: false,
      openai_key: { has_key: false, last4: null },
      openai_mode: "disabled",
      layout: "v2",
    });
    const guest = await h.signInAsGuest();
    expect((await call("GET", "/api/users/me/profile", guest.cookie)).statusCode).toBe(200);
    expect((await call("GET", "/api/users/me/profile")).statusCode).toBe(401);
  });

  it("highlights: optional, at most the configured length with the spec's message", async () => {
    const u = await h.signUp();
    const ok = "Loves maps.\nWrites long stories.";
    expect((await patchMe(u.cookie, { highlights: ok })).statusCode).toBe(200);
    expect((await settings(u.cookie)).highlights).toBe(ok);
    const long = await patchMe(u.cookie, { highlights: "x".repeat(41) });
    expect(long.statusCode).toBe(400);
    expect(long.json<ApiError>()).toMatchObject({
      message: "Highlights should be less than 40 characters",
      issues: [{ path: "highlights" }],
    });
    expect((await patchMe(u.cookie, { highlights: "x".repeat(40) })).statusCode).toBe(200);
    expect((await patchMe(u.cookie, { highlights: "" })).statusCode).toBe(200);
    expect((await settings(u.cookie)).highlights).toBe("");
  });

  it("an update refused for a taken username saves none of its settings either", async () => {
    const taken = `taken_${Date.now().toString(36)}`;
    await h.signUp({ username: taken });
    const u = await h.signUp();
    const refused = await patchMe(u.cookie, { username: taken, highlights: "Should not stay." });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ApiError>().issues).toEqual([expect.objectContaining({ path: "username" })]);
    expect((await settings(u.cookie)).highlights).toBe("");
  });

  it("NSFW: turning it on asks once for the 18+ confirmation, then never again", async () => {
    const u = await h.signUp();
    const refused = await patchMe(u.cookie, { show_nsfw: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ApiError>().message).toBe(ADULT_CONFIRMATION_NEEDED);
    expect((await row(u.id))?.showNsfw).toBe(false);

    expect((await patchMe(u.cookie, { show_nsfw: true, confirm_adult: true })).statusCode).toBe(200);
    const confirmedAt = (await row(u.id))?.adultConfirmedAt;
    expect(confirmedAt).toBeInstanceOf(Date);
    expect(await settings(u.cookie)).toMatchObject({ show_nsfw: true, adult_confirmed: true });

    expect((await patchMe(u.cookie, { show_nsfw: false })).statusCode).toBe(200);
    expect((await patchMe(u.cookie, { show_nsfw: true })).statusCode).toBe(200);
    expect((await row(u.id))?.adultConfirmedAt).toEqual(confirmedAt);
  });

  it("the external key: at most 200 characters, stored encrypted, answered only as has_key and last 4", async () => {
    const u = await h.signUp();
    const tooLong = await patchMe(u.cookie, { openai_api_key: "k".repeat(201) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<ApiError>().issues?.[0]?.path).toBe("openai_api_key");

    const saved = await patchMe(u.cookie, { openai_api_key: KEY, openai_mode: "enabled" });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).not.toContain(KEY);
    const answered = await call("GET", "/api/users/me/profile", u.cookie);
    expect(answered.body).not.toContain(KEY);
    expect(answered.json<ProfileSettings>()).toMatchObject({
      openai_key: { has_key: true, last4: "WXYZ" },
      openai_mode: "enabled",
    });
    expect((await call("GET", "/api/me", u.cookie)).body).not.toContain(KEY);

    const stored = (await row(u.id))?.llmApiKeyEncrypted ?? "";
    expect(stored).not.toContain(KEY);
    expect(stored).not.toContain("0123456789");
    expect(decryptLlmKey(h.config.secret, stored)).toBe(KEY);
    // Under another secret the stored value opens to nothing, not to garbage.
    expect(decryptLlmKey(`${h.config.secret}x`, stored)).toBeNull();

    expect((await patchMe(u.cookie, { openai_api_key: "" })).statusCode).toBe(200);
    expect((await row(u.id))?.llmApiKeyEncrypted).toBeNull();
    expect((await settings(u.cookie)).openai_key).toEqual({ has_key: false, last4: null });
    const badMode = await patchMe(u.cookie, { openai_mode: "sometimes" });
    expect(badMode.statusCode).toBe(400);
    for (const mode of ["hybrid", "disabled"] as const) {
      expect((await patchMe(u.cookie, { openai_mode: mode })).statusCode).toBe(200);
      expect((await settings(u.cookie)).openai_mode).toBe(mode);
    }
  });

  it("guests and restricted accounts cannot change these settings; paid tiers and admins can", async () => {
    const guest = await h.signInAsGuest();
    expect((await patchMe(guest.cookie, { highlights: "hi" })).statusCode).toBe(403);
    expect((await call("PATCH", "/api/users/me", undefined, { highlights: "hi" })).statusCode).toBe(401);
    for (const restriction of ["temporary", "complete"] as const) {
      const r = await h.signUp();
      await updateUser(h.database.db, r.id, { restriction });
      const res = await patchMe(r.cookie, { openai_api_key: KEY });
      expect(res.statusCode, restriction).toBe(403);
      expect((await row(r.id))?.llmApiKeyEncrypted, restriction).toBeNull();
    }
    for (const role of ["minimal", "basic", "premium"] as const) {
      const p = await h.signUp();
      await updateUser(h.database.db, p.id, { role, status: "active" });
      expect((await patchMe(p.cookie, { highlights: role })).statusCode, role).toBe(200);
    }
    const admin = await h.signUp();
    await updateUser(h.database.db, admin.id, { is_admin: true });
    expect((await patchMe(admin.cookie, { highlights: "admin" })).json<Me>().id).toBe(admin.id);
    expect((await settings(admin.cookie)).highlights).toBe("admin");
  });

  it("the default model: only a model the viewer may chat with; null goes back to the server's default", async () => {
    const free = await h.signUp();
    const get = async (cookie: string) =>
      (await call("GET", "/api/users/me/default-model", cookie)).json<DefaultModel>();
    expect(await get(free.cookie)).toEqual({ model_id: null });
    const put = (cookie: string | undefined, model_id: string | null) =>
      call("PUT", "/api/users/me/default-model", cookie, { model_id });
    expect((await put(free.cookie, "lab")).json<DefaultModel>()).toEqual({ model_id: "lab" });
    expect(await get(free.cookie)).toEqual({ model_id: "lab" });

    for (const id of ["big", "nonexistent"]) {
      const refused = await put(free.cookie, id);
      expect(refused.statusCode, id).toBe(400);
      expect(refused.json<ApiError>().message).toBe(MODEL_NOT_OFFERED);
    }
    expect(await get(free.cookie)).toEqual({ model_id: "lab" });
    expect((await put(free.cookie, null)).statusCode).toBe(200);
    expect(await get(free.cookie)).toEqual({ model_id: null });

    const premium = await h.signUp();
    await updateUser(h.database.db, premium.id, { role: "premium", status: "active" });
    expect((await put(premium.cookie, "big")).statusCode).toBe(200);
    expect((await row(premium.id))?.defaultModelId).toBe("big");

    const guest = await h.signInAsGuest();
    expect((await put(guest.cookie, "tiny")).statusCode).toBe(403);
    expect((await put(undefined, "tiny")).statusCode).toBe(401);
    const restricted = await h.signUp();
    await updateUser(h.database.db, restricted.id, { restriction: "temporary" });
    expect((await put(restricted.cookie, "tiny")).statusCode).toBe(403);
  });
});
