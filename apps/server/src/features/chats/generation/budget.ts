import type { GenerationSettings, Permission, PromptCost, PromptCostRequest } from "@hearth/contract";
import { HttpError } from "../../../http/errors.ts";
import type { ChatTurn, LlmBackend, SamplingSettings } from "../../../ports/llm.ts";
import { contextTokens, type Viewer } from "../../accounts/index.ts";
import { type CharacterRow, estimateTokens } from "../../characters/index.ts";
import { type InferenceService, isDemoModel, type RegistryEntry } from "../../inference/index.ts";
import type { PromptPersona } from "../../personas/index.ts";
import {
  buildPromptWithin,
  type PromptCharacter,
  PromptTooLongError,
  TURN_OVERHEAD_TOKENS,
} from "../prompt.ts";
import { samplingFor } from "./sampling.ts";

/**
 * The tokens a generation may use: the viewer's tier context, never more than the model really
 * holds; the reply gets the chosen length but at most a third of a small window, and no more
 * than the model's own cap.
 */
export function generationBudget(
  permissions: readonly Permission[],
  entry: RegistryEntry,
  modelWindow: number,
  settings: GenerationSettings | Record<string, number> | null,
): { window: number; sampling: SamplingSettings } {
  const window = Math.min(contextTokens(permissions, entry.tokens), modelWindow);
  const chosen = samplingFor(settings ?? {});
  const maxTokens = Math.min(
    chosen.maxTokens,
    Math.floor(window / 3),
    entry.reply_tokens_max ?? Number.POSITIVE_INFINITY,
  );
  return { window, sampling: { ...chosen, maxTokens } };
}

export function promptCharacter(
  c: Pick<
    CharacterRow,
    "name" | "persona" | "scenario" | "dialogue" | "systemPrompt" | "postHistoryInstructions"
  > & { personality?: string },
): PromptCharacter {
  return {
    name: c.name,
    persona: c.persona,
    personality: c.personality ?? "",
    scenario: c.scenario,
    dialogue: c.dialogue,
    systemPrompt: c.systemPrompt,
    postHistoryInstructions: c.postHistoryInstructions,
  };
}

/** What counting a prompt needs of a backend. */
export type TokenCounting = Pick<LlmBackend, "info" | "tokenCounter" | "countPromptTokens">;

/**
 * The model's backend for counting a message, when it loads here; in an `api` process, which
 * never loads an embedded model, an estimate within the model's real window; null when the model
 * cannot load (the worker then reports it, with the message kept).
 */
export async function countingBackend(
  inference: Pick<InferenceService, "loadsHere" | "backend" | "windows">,
  entry: RegistryEntry,
): Promise<TokenCounting | null> {
  if (inference.loadsHere(entry.id)) return inference.backend(entry.id).catch(() => null);
  const contextSize = (await inference.windows()).get(entry.id) ?? 2048;
  return {
    info: () => ({ backend: "llama-cpp", name: entry.name, contextSize, exactTokenCount: false }),
    tokenCounter: () => estimateTokens,
    countPromptTokens: (turns) =>
      turns.reduce((sum, t) => sum + estimateTokens(t.content) + TURN_OVERHEAD_TOKENS, TURN_OVERHEAD_TOKENS),
  };
}

/**
 * Refuses, before anything is stored, a message that alone cannot fit the model with the
 * character's core: the one prompt that trimming cannot save.
 */
export function assertMessageFits(
  persona: PromptPersona,
  viewer: Viewer,
  character: Parameters<typeof promptCharacter>[0],
  model: { entry: RegistryEntry; backend: TokenCounting },
  content: string,
  settings: GenerationSettings | undefined,
): void {
  const { window, sampling } = generationBudget(
    viewer.permissions,
    model.entry,
    model.backend.info().contextSize,
    settings ?? null,
  );
  try {
    buildPromptWithin(
      {
        character: promptCharacter(character),
        persona,
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

/**
 * What a definition costs on the default model, for its creator: its tokens, and what the first
 * message of a free member's chat would cut (the same prompt building as a real chat).
 */
export async function promptCostOf(
  inference: Pick<InferenceService, "defaultEntry" | "readyDefault" | "windows">,
  fields: Required<Omit<PromptCostRequest, "name">> & { name: string },
): Promise<PromptCost> {
  const entry = inference.defaultEntry;
  const modelWindow = (await inference.windows()).get(entry.id) ?? 2048;
  const backend = await inference.readyDefault();
  const count = backend ? backend.tokenCounter() : estimateTokens;
  const countPrompt = backend
    ? (turns: ChatTurn[]) => backend.countPromptTokens(turns)
    : (turns: ChatTurn[]) =>
        turns.reduce(
          (sum, t) => sum + estimateTokens(t.content) + TURN_OVERHEAD_TOKENS,
          TURN_OVERHEAD_TOKENS,
        );
  const { window, sampling } = generationBudget([], entry, modelWindow, null);
  const character = promptCharacter({
    name: fields.name || "Character",
    persona: fields.persona,
    personality: fields.personality,
    scenario: fields.scenario,
    dialogue: fields.dialogue,
    systemPrompt: fields.system_prompt,
    postHistoryInstructions: fields.post_history_instructions,
  });
  const definition = [
    fields.system_prompt,
    fields.persona,
    fields.personality,
    fields.scenario,
    fields.dialogue,
    fields.greeting,
    fields.post_history_instructions,
  ];
  let trims: PromptCost["trims"] = [];
  try {
    trims = buildPromptWithin(
      {
        character,
        persona: { name: "User", description: "" },
        history: [
          ...(fields.greeting.trim()
            ? [{ id: "greeting", role: "bot" as const, content: fields.greeting }]
            : []),
          { id: "first", role: "user", content: "Hello!" },
        ],
        mode: "reply",
        contextTokens: window,
        replyTokens: sampling.maxTokens,
        countTokens: count,
      },
      countPrompt,
    ).trims;
  } catch (error) {
    if (!(error instanceof PromptTooLongError)) throw error;
  }
  return {
    model_name: entry.name,
    is_demo: isDemoModel(entry),
    model_window: modelWindow,
    window,
    definition_tokens: count(definition.filter((t) => t.trim()).join("\n")),
    exact: backend?.info().exactTokenCount ?? false,
    trims,
  };
}
