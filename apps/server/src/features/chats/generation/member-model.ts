import { OpenAiCompatibleBackend } from "../../../adapters/openai-compatible.ts";
import type { Config } from "../../../config.ts";
import type { Db } from "../../../db/client.ts";
import type { LlmBackend } from "../../../ports/llm.ts";
import type { JobQueue } from "../../../ports/queue.ts";
import { type MemberLlm, memberLlm } from "../../accounts/index.ts";
import type { InferenceService, RegistryEntry } from "../../inference/index.ts";

/**
 * Which backend writes a member's reply (profile settings, the external model key and its mode):
 * `disabled` (or no key): the server's model; `enabled`: always the member's key at
 * HEARTH_USER_LLM_BASE_URL; `hybrid`: the member's key only while other replies wait in the
 * server's queue, or when the chosen model cannot be served here.
 */
export function memberBackendChooser(deps: {
  db: Db;
  config: Config;
  queue: JobQueue;
  inference: InferenceService;
  jobName: string;
}) {
  const own = (setting: MemberLlm, entry: RegistryEntry): LlmBackend =>
    new OpenAiCompatibleBackend({
      baseUrl: deps.config.userLlm.baseUrl,
      apiKey: setting.key ?? "",
      model: deps.config.userLlm.model,
      contextSize: entry.context_size ?? entry.tokens,
    });
  return async (userId: string, entry: RegistryEntry): Promise<LlmBackend> => {
    const setting = await memberLlm(deps.db, deps.config.secret, userId);
    if (!setting.key || setting.mode === "disabled") return deps.inference.backend(entry.id);
    if (setting.mode === "enabled") return own(setting, entry);
    if ((await deps.queue.waitingCount(deps.jobName)) > 0) return own(setting, entry);
    try {
      return await deps.inference.backend(entry.id);
    } catch {
      return own(setting, entry);
    }
  };
}
