import type { GenerationSettings } from "@hearth/contract";
import { type GenerationSettingKey, generationSettingFields } from "@hearth/contract/labels";
import type { SamplingSettings } from "../../../ports/llm.ts";

/** One table (the client's sliders) holds each setting's range and its default. */
const field = (key: GenerationSettingKey) =>
  generationSettingFields.find((f) => f.key === key) as (typeof generationSettingFields)[number];

/** Each setting clamped to its range; a setting the user left alone takes its default. */
function setting(settings: GenerationSettings | Record<string, number>, key: GenerationSettingKey): number {
  const f = field(key);
  const value = (settings as Record<string, number | undefined>)[key] ?? f.default;
  return Math.min(f.max, Math.max(f.min, value));
}

/** The sampling a generation uses; the contract already refuses values outside the ranges. */
export function samplingFor(settings: GenerationSettings | Record<string, number>): SamplingSettings {
  return {
    maxTokens: Math.round(setting(settings, "max_new_tokens")),
    temperature: setting(settings, "temperature"),
    topP: setting(settings, "top_p"),
    topK: Math.round(setting(settings, "top_k")),
    repeatPenalty: 1.1,
  };
}
