import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../config.ts";
import { loadRegistry, type RegistryEntry } from "../../inference/registry.ts";
import { generationBudget } from "./budget.ts";

const remote: RegistryEntry = {
  id: "remote",
  name: "Remote",
  tokens: 8192,
  permission: null,
  hide_unauthorized: false,
  tags: [],
  backend: { type: "openai", base_url: "http://127.0.0.1:1/v1", model: "m" },
};

describe("a generation's budget", () => {
  it("is the tier's context capped by the model's real window", () => {
    expect(generationBudget([], remote, 8192, null).window).toBe(2048);
    expect(generationBudget(["4k_context"], remote, 8192, null).window).toBe(4096);
    expect(generationBudget(["4k_context"], remote, 2048, null).window).toBe(2048);
  });

  it("keeps the chosen reply length, but at most a third of a small window and the model's own cap", () => {
    expect(generationBudget([], remote, 8192, { max_new_tokens: 250 }).sampling.maxTokens).toBe(250);
    expect(generationBudget([], remote, 512, { max_new_tokens: 250 }).sampling.maxTokens).toBe(170);
    const bundled = loadRegistry(loadConfig({ HEARTH_DATA_DIR: "/tmp/hearth-budget-test" }))
      .entries[0] as RegistryEntry;
    expect(bundled.reply_tokens_max).toBe(128);
    expect(generationBudget([], bundled, 2048, { max_new_tokens: 300 }).sampling.maxTokens).toBe(128);
  });
});
