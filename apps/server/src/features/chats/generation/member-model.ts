import { OpenAiCompatibleBackend } from "../../../adapters/openai-compatible.ts";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import type { LlmBackend } from "../../../ports/llm.ts";
import { decryptLlmKey, type MemberLlm, memberLlm } from "../../accounts/index.ts";
import type { InferenceService, RegistryEntry } from "../../inference/index.ts";

/**
 * Whether a member's reply goes to their own key (profile settings, the external model key and
 * its mode), decided when it is queued, so it waits for no slot of the server's: `enabled`
 * always; `hybrid` while other replies wait in the server's line; `disabled` (or no key) never.
 */
export async function viaMemberKey(
  config: Config,
  /** The member's stored setting (read with the rest of the request's context). */
  stored: { mode: MemberLlm["mode"]; encryptedKey: string | null },
  lineBusy: () => Promise<boolean>,
): Promise<boolean> {
  if (stored.mode === "disabled" || !decryptLlmKey(config.secret, stored.encryptedKey)) return false;
  return stored.mode === "enabled" || (await lineBusy());
}

/**
 * Which backend writes a member's reply: their key at HEARTH_USER_LLM_BASE_URL when it was queued
 * for it, else the server's model, or (in `hybrid`) their key when the chosen model cannot be
 * served here.
 */
export function memberBackendChooser(deps: { db: Db; config: Config; inference: InferenceService }) {
  const own = (setting: MemberLlm, entry: RegistryEntry): LlmBackend =>
    new OpenAiCompatibleBackend({
      baseUrl: deps.config.userLlm.baseUrl,
      apiKey: setting.key ?? "",
      model: deps.config.userLlm.model,
      contextSize: entry.context_size ?? entry.tokens,
    });
  return async (
    userId: string,
    entry: RegistryEntry,
    memberKey: boolean,
    /** The member's stored setting where the caller read it already (the worker's context). */
    stored?: { mode: MemberLlm["mode"]; encryptedKey: string | null },
  ): Promise<LlmBackend> => {
    const setting: MemberLlm = stored
      ? { mode: stored.mode, key: decryptLlmKey(deps.config.secret, stored.encryptedKey) }
      : await memberLlm(deps.db, deps.config.secret, userId);
    if (!setting.key || setting.mode === "disabled") return deps.inference.backend(entry.id);
    if (memberKey) return own(setting, entry);
    try {
      return await deps.inference.backend(entry.id);
    } catch {
      if (setting.mode === "hybrid") return own(setting, entry);
      throw new Error("The server's model could not be loaded.");
    }
  };
}
