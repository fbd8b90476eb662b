import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ModelList } from "@hearth/contract";
import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, sendInNewChat } from "../../../test/chat.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../../test/model.ts";
import { generations } from "../chats/schema.ts";

/**
 * The Settings page's default model (accounts-billing-admin §2.2 Settings page) is what a member's
 * chats start with: /api/models selects it when the device chose nothing, and a generation that
 * names no model runs on it, while it is still offered to the member.
 */
describe("the member's default model starts their new chats", () => {
  let h: TestHearth;
  let base: string;
  let characterId: string;
  beforeAll(async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "hearth-default-model-")), "models.json");
    const embedded = { type: "embedded", path: TEST_MODEL_PATH };
    writeFileSync(
      file,
      JSON.stringify({
        models: [
          { id: "house", name: "House", backend: embedded },
          { id: "lab", name: "Lab", tags: ["experimental"], backend: embedded },
          { id: "gold", name: "Gold", permission: "8k_context", backend: embedded },
        ],
      }),
    );
    h = await startTestHearth({ env: { HEARTH_MODELS_FILE: file } });
    base = await h.listen();
    const owner = await h.signUp({ username: `owner${Date.now().toString(36)}` });
    characterId = (await insertTestCharacter(h.database.db, owner.id)).id;
  });
  afterAll(async () => {
    await h.stop();
  });

  const setDefault = (cookie: string, model_id: string | null) =>
    h.app.inject({
      method: "PUT",
      url: "/api/users/me/default-model",
      headers: { cookie, "content-type": "application/json" },
      payload: JSON.stringify({ model_id }),
    });
  const models = async (cookie: string, selected?: string) =>
    (
      await h.app.inject({
        method: "GET",
        url: `/api/models${selected ? `?selected=${selected}` : ""}`,
        headers: { cookie },
      })
    ).json<ModelList>();
  /** Sends in a new chat and answers the model the generation ran on. */
  const modelOfNewChat = async (user: { cookie: string; id: string }, extra = {}) => {
    const events = await sendInNewChat(base, user.cookie, characterId, "Hello there", extra);
    expect(events.at(-1)?.event.type, JSON.stringify(events.at(-1))).toBe("done");
    const [row] = await h.database.db
      .select({ modelId: generations.modelId })
      .from(generations)
      .where(eq(generations.userId, user.id))
      .orderBy(desc(generations.createdAt))
      .limit(1);
    return row?.modelId;
  };

  it("a new chat without a model runs on the stored default; /api/models selects it", async () => {
    const u = await h.signUp();
    expect(await modelOfNewChat(u)).toBe("house");
    expect((await setDefault(u.cookie, "lab")).statusCode).toBe(200);
    const list = await models(u.cookie);
    expect(list).toMatchObject({ default_id: "house", viewer_default_id: "lab", selected_id: "lab" });
    expect(await modelOfNewChat(u)).toBe("lab");
    // A choice made on this device still wins, and back to the server's default with null.
    expect(await modelOfNewChat(u, { model_id: "house" })).toBe("house");
    expect((await models(u.cookie, "house")).selected_id).toBe("house");
    expect((await setDefault(u.cookie, null)).statusCode).toBe(200);
    expect((await models(u.cookie)).viewer_default_id).toBe("house");
    expect(await modelOfNewChat(u)).toBe("house");
  });

  it("a default the member may no longer use gives way to the server's, as does a device choice that is gone", async () => {
    const u = await h.signUp();
    await updateUser(h.database.db, u.id, { role: "premium", status: "active" });
    expect((await setDefault(u.cookie, "gold")).statusCode).toBe(200);
    expect(await modelOfNewChat(u)).toBe("gold");
    // A device choice that no longer exists falls back to the member's default, not the server's.
    expect(await modelOfNewChat(u, { model_id: "retired" })).toBe("gold");
    expect((await models(u.cookie, "retired")).selected_id).toBe("gold");
    await updateUser(h.database.db, u.id, { role: "free", status: "inactive" });
    expect((await models(u.cookie)).viewer_default_id).toBe("house");
    expect(await modelOfNewChat(u)).toBe("house");
  });

  it("another member's default does not reach anyone else", async () => {
    const chooser = await h.signUp();
    expect((await setDefault(chooser.cookie, "lab")).statusCode).toBe(200);
    const other = await h.signUp();
    expect((await models(other.cookie)).selected_id).toBe("house");
    expect(await modelOfNewChat(other)).toBe("house");
  });
});
