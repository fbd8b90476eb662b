import type { ApiError, ConversationCreated, Persona } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../test/chat.ts";
import { drivers } from "../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../test/harness.ts";

/**
 * A JSON body is JSON: text/plain (which fastify would parse, and which a page on another site
 * may post without the browser asking) and form bodies are refused with 415 before they are
 * read, even from Hearth's own origin; `+json` types are JSON. (The fuzz test walks every endpoint.)
 */
describe.each(drivers)("JSON bodies only where the contract says JSON (%s)", (driver) => {
  let h: TestHearth;
  let me: { cookie: string; id: string };
  let conversationId: string;

  beforeAll(async () => {
    h = await startTestHearth({ driver });
    me = await h.signUp({ name: "Member" });
    const character = await insertTestCharacter(h.database.db, me.id);
    const res = await h.app.inject({
      method: "POST",
      url: "/api/conversations",
      headers: { cookie: me.cookie, "content-type": "application/json" },
      payload: JSON.stringify({ character_id: character.id }),
    });
    conversationId = res.json<ConversationCreated>().conversation.id;
  });
  afterAll(async () => {
    await h?.stop();
  });

  const post = (url: string, contentType: string | undefined, payload: string, method = "POST" as const) =>
    h.app.inject({
      method,
      url,
      headers: { cookie: me.cookie, ...(contentType ? { "content-type": contentType } : {}) },
      payload,
    });
  const personas = async () =>
    (await h.app.inject({ method: "GET", url: "/api/personas", headers: { cookie: me.cookie } })).json<{
      personas: Persona[];
    }>().personas;

  it("refuses text/plain, form and multipart bodies with 415, and stores nothing", async () => {
    const body = JSON.stringify({ name: "Smuggled" });
    for (const type of [
      "text/plain",
      "text/plain;charset=UTF-8",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      undefined,
    ]) {
      const res = await post("/api/personas", type, body);
      expect(res.statusCode, String(type)).toBe(415);
      const error = res.json<ApiError>();
      expect(error.code).toBe("unsupportedMediaType");
      expect(error.message).toMatch(/application\/json/);
    }
    expect((await personas()).map((p) => p.name)).not.toContain("Smuggled");
  });

  it("takes application/json with a charset, and the +json types", async () => {
    const created = await post(
      "/api/personas",
      "application/json; charset=utf-8",
      JSON.stringify({ name: "Plain" }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const patched = await h.app.inject({
      method: "PATCH",
      url: `/api/conversations/${conversationId}`,
      headers: { cookie: me.cookie, "content-type": "application/merge-patch+json" },
      payload: JSON.stringify({ label: "Merge-patched" }),
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<{ label: string }>().label).toBe("Merge-patched");
  });

  it("lets a bodyless POST through without a content type", async () => {
    const [persona] = await personas();
    const res = await h.app.inject({
      method: "POST",
      url: `/api/personas/${persona?.id}/default`,
      headers: { cookie: me.cookie },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
  });
});
