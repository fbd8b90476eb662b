import type { Character, CharacterTranslation } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { api, type Person, personAs, type Role } from "./test-support.ts";

/** A creator's translations of a bot (issue 17 item 5): who may write them, and ?language= serving them. */
describe.each(drivers)("character translations on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let creator: Person;

  beforeAll(async () => {
    h = await startTestHearth({ driver, env: { HEARTH_REVIEW_PUBLIC_BOTS: "false" } });
    a = api(h);
    creator = await personAs(h, "free", "Creator");
  });
  afterAll(async () => {
    await h?.stop();
  });

  const spanish = {
    name: "Mira (es)",
    title: "Guardiana de mapas",
    greeting: "¡Hola!",
    persona: "Una bibliotecaria.",
  };

  it("lets only the creator (or an admin) write translations", async () => {
    const bot = await a.create(creator, { visibility: "public", title: "Keeper of maps" });
    const url = `/api/characters/${bot.id}/translations/es`;
    for (const role of ["signed out", "guest", "free", "premium", "restricted"] as Role[]) {
      const res = await a.put(url, spanish, await personAs(h, role));
      expect(res.statusCode, role).toBe(role === "signed out" ? 401 : 403);
    }
    expect((await a.put(url, spanish, await personAs(h, "admin"))).statusCode).toBe(200);
    const res = await a.put(url, spanish, creator);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<CharacterTranslation>()).toMatchObject({
      language: "es",
      title: "Guardiana de mapas",
      scenario: null,
    });
    expect(
      (await a.put(`/api/characters/${bot.id}/translations/not a language`, spanish, creator)).statusCode,
    ).toBe(400);
    const list = await a.get(`/api/characters/${bot.id}/translations`, creator);
    expect(list.json<{ translations: CharacterTranslation[] }>().translations.map((t) => t.language)).toEqual(
      ["es"],
    );
    expect(
      (await a.get(`/api/characters/${bot.id}/translations`, await personAs(h, "free"))).statusCode,
    ).toBe(403);
  });

  it("serves the profile in a translation with ?language=, the original otherwise", async () => {
    const bot = await a.create(creator, {
      visibility: "public",
      title: "Keeper of maps",
      scenario: "A library at dusk.",
      definition_visible: false,
    });
    expect((await a.put(`/api/characters/${bot.id}/translations/es`, spanish, creator)).statusCode).toBe(200);
    const reader = await personAs(h, "free");
    const es = (await a.get(`/api/characters/${bot.id}?language=ES`, reader)).json<Character>();
    expect(es).toMatchObject({
      language: "es",
      name: "Mira (es)",
      title: "Guardiana de mapas",
      greeting: "¡Hola!",
    });
    // The definition stays withheld from a reader when the creator hides it.
    expect(es.persona).toBeNull();
    const mine = (await a.get(`/api/characters/${bot.id}?language=es`, creator)).json<Character>();
    expect(mine).toMatchObject({ persona: "Una bibliotecaria.", scenario: "A library at dusk." });
    const fr = (await a.get(`/api/characters/${bot.id}?language=fr`, reader)).json<Character>();
    expect(fr).toMatchObject({ language: "en", title: "Keeper of maps" });
    // The editor's view is always the original.
    const edit = (await a.get(`/api/characters/${bot.id}?switch=T1&language=es`, creator)).json<Character>();
    expect(edit.title).toBe("Keeper of maps");
    expect((await a.delete(`/api/characters/${bot.id}/translations/es`, creator)).statusCode).toBe(204);
    expect((await a.delete(`/api/characters/${bot.id}/translations/es`, creator)).statusCode).toBe(404);
    expect((await a.get(`/api/characters/${bot.id}?language=es`, reader)).json<Character>().title).toBe(
      "Keeper of maps",
    );
  });
});
