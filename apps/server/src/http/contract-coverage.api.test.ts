import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../test/harness.ts";
import { repoRoot } from "../config.ts";
import { apiReferenceMarkdown } from "./api-reference.ts";
import { fastifyPath } from "./route.ts";

/**
 * Every route the server registers is declared in the contract, so it is in the OpenAPI
 * document (and walked by the fuzz test). Only routes that are not Hearth's own API are left out.
 */
const NOT_OURS = [
  /^(GET|POST|PUT|PATCH|DELETE|OPTIONS) \/api\/auth\/\*$/, // better-auth's own routes
  /^(GET|HEAD) \/\*$/, // the web client's files
  /^HEAD /, // fastify adds HEAD for each GET
];

describe("the OpenAPI document covers every route", () => {
  let h: TestHearth;
  beforeAll(async () => {
    h = await startTestHearth({ env: { HEARTH_API_KEY: "k".repeat(32) } });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("serves /api/openapi.json with every registered route in it", async () => {
    const res = await h.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const document = res.json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>();
    expect(document.openapi).toBe("3.1.0");
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${fastifyPath(path)}`),
      ),
    );
    const registered = [...new Set(h.routes)].filter((r) => !NOT_OURS.some((skip) => skip.test(r)));
    expect(registered.length).toBeGreaterThan(50);
    expect(registered.filter((r) => !documented.has(r))).toEqual([]);
  });

  it("docs/API.md is the reference generated from the contract (npm run api-docs)", () => {
    expect(readFileSync(path.join(repoRoot(), "docs/API.md"), "utf8")).toBe(apiReferenceMarkdown());
  });
});
