import type { GenerationSettings } from "@hearth/contract";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import type { LlmBackend, SamplingSettings } from "../../ports/llm.ts";
import { contextTokens } from "../accounts/permissions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import type { CharacterRow } from "../characters/schema.ts";
import { buildPromptWithin, type PromptCharacter, PromptTooLongError } from "../chats/prompt.ts";
import type { ConversationRow } from "../chats/schema.ts";
import type { RegistryEntry } from "../inference/registry.ts";
import { resolvePersonaForPrompt } from "../personas/index.ts";
import { samplingFor } from "./sampling.ts";

/**
 * The tokens a generation may use: the viewer's tier context, never more than the model really
 * holds; the reply gets the chosen length but at most a third of a small window.
 */
export function generationBudget(
  viewer: Viewer,
  entry: RegistryEntry,
  backend: LlmBackend,
  settings: GenerationSettings | Record<string, number> | null,
): { window: number; sampling: SamplingSettings } {
  const window = Math.min(contextTokens(viewer.permissions, entry.tokens), backend.info().contextSize);
  const chosen = samplingFor(settings ?? {});
  return { window, sampling: { ...chosen, maxTokens: Math.min(chosen.maxTokens, Math.floor(window / 3)) } };
}

export function promptCharacter(c: CharacterRow): PromptCharacter {
  return {
    name: c.name,
    persona: c.persona,
    scenario: c.scenario,
    dialogue: c.dialogue,
    systemPrompt: c.systemPrompt,
    postHistoryInstructions: c.postHistoryInstructions,
  };
}

/**
 * Refuses, before anything is stored, a message that alone cannot fit the model with the
 * character's core: the one prompt that trimming cannot save.
 */
export async function assertMessageFits(
  db: Db,
  viewer: Viewer,
  conversation: ConversationRow,
  character: CharacterRow,
  model: { entry: RegistryEntry; backend: LlmBackend },
  content: string,
  settings: GenerationSettings | undefined,
): Promise<void> {
  const { window, sampling } = generationBudget(viewer, model.entry, model.backend, settings ?? null);
  try {
    buildPromptWithin(
      {
        character: promptCharacter(character),
        persona: await resolvePersonaForPrompt(db, viewer.id, conversation.userPersonaId),
        history: [{ id: "new", role: "user", content }],
        mode: "reply",
        contextTokens: window,
        replyTokens: sampling.maxTokens,
        countTokens: model.backend.tokenCounter(),
      },
      (turns) => model.backend.countPromptTokens(turns),
    );
  } catch (error) {
    if (error instanceof PromptTooLongError)
      throw new HttpError(400, "messageTooLong", tooLongMessage(error, content));
    throw error;
  }
}

/** Says how long the message may be, in tokens and (roughly) in characters. */
export function tooLongMessage(error: PromptTooLongError, text?: string): string {
  if (error.role === "bot") {
    return `This reply already fills what this model can read (${error.maxTokens} tokens), so it cannot be continued. Send a new message instead.`;
  }
  const charsPerToken = text && error.messageTokens > 0 ? text.length / error.messageTokens : 3.5;
  const maxChars = Math.floor(error.maxTokens * charsPerToken);
  return `This message is too long for this model: it is ${error.messageTokens} tokens, and at most ${error.maxTokens} fit (about ${maxChars} characters). Shorten it and send it again.`;
}
