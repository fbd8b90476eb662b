import { describe, expect, it } from "vitest";
import { samplingFor } from "./sampling.ts";

describe("samplingFor", () => {
  it("uses the shared defaults when nothing is set", () => {
    expect(samplingFor({})).toEqual({
      maxTokens: 200,
      temperature: 0.8,
      topP: 0.95,
      topK: 40,
      repeatPenalty: 1.1,
    });
  });

  it("keeps values inside the spec's ranges", () => {
    expect(samplingFor({ max_new_tokens: 9999, temperature: -1, top_p: 0, top_k: 1000 })).toEqual({
      maxTokens: 300,
      temperature: 0,
      topP: 0.01,
      topK: 100,
      repeatPenalty: 1.1,
    });
    expect(samplingFor({ max_new_tokens: 250, temperature: 1.2, top_p: 0.5, top_k: 7 })).toMatchObject({
      maxTokens: 250,
      temperature: 1.2,
      topP: 0.5,
      topK: 7,
    });
  });
});
