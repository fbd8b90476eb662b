import type { ApiError, PromptCost } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LONG_CARD } from "../../../test/fixtures/long-card.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { api, type Person, personAs, type Role } from "./test-support.ts";

/** POST /api/characters/prompt-cost: what the editor shows a creator as they type. */
describe("prompt cost of a definition", () => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  const people = new Map<Role, Person>();

  beforeAll(async () => {
    h = await startTestHearth({ env: { LLM_THREADS: "1" } });
    a = api(h);
    for (const role of ["signed out", "guest", "free", "premium", "restricted"] as const)
      people.set(role, await personAs(h, role));
  });
  afterAll(async () => {
    await h.stop();
  });

  const short = {
    name: "Mira",
    greeting: "*Mira looks up.* Hello, {{user}}.",
    persona: "{{char}} is a librarian who loves old maps.",
    scenario: "",
    dialogue: "{{user}}: Hi\n{{char}}: Welcome.",
    system_prompt: "",
    post_history_instructions: "",
  };
  const { data } = LONG_CARD;
  const long = {
    name: data.name,
    greeting: data.first_mes,
    persona: data.description,
    scenario: data.scenario,
    dialogue: data.mes_example,
    system_prompt: data.system_prompt,
    post_history_instructions: data.post_history_instructions,
  };

  it("a short definition fits whole; a long one says what a first message leaves out", async () => {
    const fits = await a.post("/api/characters/prompt-cost", short, people.get("free"));
    expect(fits.statusCode, fits.body).toBe(200);
    const small = fits.json<PromptCost>();
    expect(small).toMatchObject({ is_demo: true, exact: true, trims: [] });
    expect(small.definition_tokens).toBeGreaterThan(5);
    expect(small.definition_tokens).toBeLessThan(small.window);

    const big = (await a.post("/api/characters/prompt-cost", long, people.get("premium"))).json<PromptCost>();
    // The window is a free member's, whoever asks: what most chatters get.
    expect(big.window).toBe(small.window);
    expect(big.definition_tokens).toBeGreaterThan(big.window);
    const sections = big.trims.map((t) => t.section);
    expect(sections[0]).toBe("examples");
    expect(sections).toContain("description");
    for (const t of big.trims) expect(t.kept_tokens).toBeLessThan(t.full_tokens);
  });

  it("needs create_character; malformed bodies get a 400 with the field", async () => {
    for (const role of ["signed out", "guest", "restricted"] as const) {
      const res = await a.post("/api/characters/prompt-cost", short, people.get(role));
      expect(res.statusCode, role).toBeGreaterThanOrEqual(401);
      expect(res.statusCode, role).toBeLessThan(404);
    }
    const bad = await a.post("/api/characters/prompt-cost", { ...short, persona: 42 }, people.get("free"));
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ApiError>().issues?.[0]?.path).toBe("persona");
  });
});
