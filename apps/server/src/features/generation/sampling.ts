import type { GenerationSettings } from "@hearth/contract";
import type { SamplingSettings } from "../../ports/llm.ts";

/** Defaults when the user has not tuned anything (the spec leaves them unstated). */
export const DEFAULT_SETTINGS = { max_new_tokens: 200, temperature: 0.8, top_p: 0.95, top_k: 40 } as const;

/** Clamps to the ranges of spec §5; the contract already refuses values outside them. */
export function samplingFor(settings: GenerationSettings | Record<string, number>): SamplingSettings {
  const s = { ...DEFAULT_SETTINGS, ...settings } as Required<GenerationSettings>;
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  return {
    maxTokens: Math.round(clamp(s.max_new_tokens, 180, 300)),
    temperature: clamp(s.temperature, 0, 1.5),
    topP: clamp(s.top_p, 0.01, 1),
    topK: Math.round(clamp(s.top_k, 1, 100)),
    repeatPenalty: 1.1,
  };
}
