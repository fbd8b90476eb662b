import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ModelList } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { TEST_MODEL_PATH } from "../../../test/model.ts";

describe("GET /api/models per role", () => {
  let h: TestHearth;
  beforeAll(async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "hearth-models-")), "models.json");
    writeFileSync(
      file,
      JSON.stringify({
        models: [
          { id: "tiny", name: "Tiny", backend: { type: "embedded", path: TEST_MODEL_PATH } },
          {
            id: "big",
            name: "Big",
            permission: "8k_context",
            hide_unauthorized: true,
            backend: { type: "embedded", path: TEST_MODEL_PATH },
          },
        ],
      }),
    );
    h = await startTestHearth({ env: { HEARTH_MODELS_FILE: file } });
  });
  afterAll(async () => {
    await h.stop();
  });

  const list = async (cookie?: string, selected?: string) =>
    (
      await h.app.inject({
        method: "GET",
        url: `/api/models${selected ? `?selected=${selected}` : ""}`,
        headers: cookie ? { cookie } : {},
      })
    ).json<ModelList>();

  it("signed out and guests see only what they may use; a forbidden stored choice resets", async () => {
    expect((await list()).models.map((m) => m.id)).toEqual(["tiny"]);
    const guest = await h.signInAsGuest();
    const g = await list(guest.cookie, "big");
    expect(g.models.map((m) => m.id)).toEqual(["tiny"]);
    expect(g.selected_id).toBe("tiny");
  });

  it("I'm All In subscribers see and may choose the 8K model", async () => {
    const u = await h.signUp();
    await updateUser(h.database.db, u.id, { role: "premium", status: "active" });
    const p = await list(u.cookie, "big");
    expect(p.models.map((m) => [m.id, m.available])).toEqual([
      ["tiny", true],
      ["big", true],
    ]);
    expect(p.selected_id).toBe("big");
  });

  it("a malformed query is a 400", async () => {
    const res = await h.app.inject({ method: "GET", url: `/api/models?selected=${"x".repeat(300)}` });
    expect(res.statusCode).toBe(400);
  });
});
