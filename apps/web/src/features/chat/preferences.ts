import type { AppConfig, GenerateRequest, GenerationSettings, Me } from "@hearth/contract";
import { generationSettingFields } from "@hearth/contract/labels";
import { readStored, removeStored, useStored } from "../characters/local-store.ts";

/**
 * What this device remembers for the chat (chat-and-characters §3 "Local storage holds": the
 * chosen model and generation settings), per account so two people sharing a browser don't mix.
 */

const modelKey = (userId: string) => `hearth.chat.model.${userId}`;
const settingsKey = (userId: string) => `hearth.chat.generation.${userId}`;

/** Generation Settings: the generation_settings permission, and never in the partner edition (§6). */
export function canTuneGeneration(me: Me | null, config: AppConfig): boolean {
  return Boolean(me?.permissions.includes("generation_settings")) && config.edition !== "partner";
}

export const defaultGenerationSettings = Object.fromEntries(
  generationSettingFields.map((field) => [field.key, field.default]),
) as Required<GenerationSettings>;

/** The chosen model's id, or null for the server's default. */
export function useModelChoice(userId: string) {
  return useStored<string | null>(modelKey(userId), null);
}

export function forgetModelChoice(userId: string) {
  removeStored(modelKey(userId));
}

/** The user's generation settings, or null when they never changed them (the server's defaults apply). */
export function useGenerationSettings(userId: string) {
  return useStored<GenerationSettings | null>(settingsKey(userId), null);
}

export function resetGenerationSettings(userId: string) {
  removeStored(settingsKey(userId));
}

/**
 * What each generation request carries from this device: the chosen model, and the settings when
 * the user may tune them. Read when the request is made, so a change applies to the next one.
 */
export function generationExtras(userId: string, me: Me | null, config: AppConfig): Partial<GenerateRequest> {
  const extras: Partial<GenerateRequest> = {};
  const model = readStored<string | null>(modelKey(userId), null);
  if (typeof model === "string" && model) extras.model_id = model;
  if (canTuneGeneration(me, config)) {
    const settings = readStored<GenerationSettings | null>(settingsKey(userId), null);
    if (settings && typeof settings === "object") extras.settings = clampSettings(settings);
  }
  return extras;
}

/** Keeps stored values inside §5's ranges (an old or hand-edited value must not fail the request). */
export function clampSettings(settings: GenerationSettings): GenerationSettings {
  const clean: GenerationSettings = {};
  for (const field of generationSettingFields) {
    const value = settings[field.key];
    if (typeof value !== "number" || !Number.isFinite(value)) continue;
    const bounded = Math.min(field.max, Math.max(field.min, value));
    clean[field.key] = field.step >= 1 ? Math.round(bounded) : Math.round(bounded * 100) / 100;
  }
  return clean;
}
