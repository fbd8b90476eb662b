import type { ChatTurn } from "../../ports/llm.ts";

/**
 * Prompt building: a pure function from a character, the user's persona and the history to the
 * turns the model sees, within a token budget. Order: the character's system prompt, the card
 * (who the character is, the scenario, who the user is), example dialogues, history (the
 * greeting is its first message), post-history instructions. Over budget, example dialogues go first, then the oldest history.
 */
export interface PromptCharacter {
  name: string;
  persona: string;
  scenario: string;
  dialogue: string;
  systemPrompt: string;
  postHistoryInstructions: string;
}

export interface PromptPersona {
  name: string;
  /** Who the user plays, in their words (persona highlights). */
  description: string;
}

export interface HistoryMessage {
  id: string;
  role: "user" | "bot";
  content: string;
}

export type PromptMode = "reply" | "continue" | "autopilot";

export interface PromptInput {
  character: PromptCharacter;
  persona: PromptPersona;
  /** Oldest first. For `continue`, the last message is the bot message to extend. */
  history: HistoryMessage[];
  mode: PromptMode;
  /** Tokens the whole prompt plus the reply may use (the tier's context, capped by the model's). */
  contextTokens: number;
  /** Tokens kept free for the reply. */
  replyTokens: number;
  /** Counts tokens as the model will (exact for the embedded engine, an estimate otherwise). */
  countTokens: (text: string) => number;
}

export interface BuiltPrompt {
  messages: ChatTurn[];
  /** Id of the oldest history message sent; those before it are marked as no longer used. */
  contextStartMessageId: string | null;
  includedExamples: boolean;
  promptTokens: number;
}

/** Per-turn overhead of chat templates (role markers, separators), counted on top of the text. */
const TURN_OVERHEAD_TOKENS = 8;

/** Resolves {{char}} and {{user}} (any case), and the older <BOT>/<USER> forms. */
export function resolveMacros(text: string, charName: string, userName: string): string {
  return text
    .replace(/\{\{\s*char\s*\}\}|<BOT>/gi, charName)
    .replace(/\{\{\s*user\s*\}\}|<USER>/gi, userName);
}

export function buildPrompt(input: PromptInput): BuiltPrompt {
  const { character, persona, mode } = input;
  const fill = (text: string) => resolveMacros(text, character.name, persona.name).trim();
  const cost = (turn: ChatTurn) => input.countTokens(turn.content) + TURN_OVERHEAD_TOKENS;

  // The card reads as the bundled model was trained ("You are X. ... You are talking with Y."),
  // which is also a plain, effective system prompt for larger models.
  const card = [`You are ${character.name}. ${fill(character.persona)}`.trim()];
  if (character.scenario.trim()) card.push(`Scenario: ${fill(character.scenario)}`);
  card.push(
    `You are talking with ${persona.name}.${persona.description.trim() ? ` ${fill(persona.description)}` : ""}`,
  );
  const systemParts = [card.join("\n")];
  if (character.systemPrompt.trim()) systemParts.unshift(fill(character.systemPrompt));
  if (mode === "autopilot") {
    systemParts.push(
      `Now write ${persona.name}'s next message to ${character.name}, in ${persona.name}'s voice. Only that message.`,
    );
  }
  const system: ChatTurn = { role: "system", content: systemParts.join("\n\n") };
  const examples: ChatTurn | null = character.dialogue.trim()
    ? { role: "system", content: `Example of how ${character.name} talks:\n${fill(character.dialogue)}` }
    : null;
  const post: ChatTurn | null = character.postHistoryInstructions.trim()
    ? { role: "system", content: fill(character.postHistoryInstructions) }
    : null;

  // Autopilot speaks for the user: the roles swap, so any chat template produces the user's turn.
  const asTurn = (m: HistoryMessage): ChatTurn => {
    const fromUser = m.role === "user";
    const role = mode === "autopilot" ? (fromUser ? "assistant" : "user") : fromUser ? "user" : "assistant";
    return { role, content: fill(m.content) };
  };
  const history = input.history.map(asTurn);

  let budget = input.contextTokens - input.replyTokens - cost(system) - (post ? cost(post) : 0);
  // The newest messages are kept first; the message being continued is always kept.
  const kept: ChatTurn[] = [];
  let start = history.length;
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i] as ChatTurn;
    const c = cost(turn);
    const mustKeep = i === history.length - 1;
    if (c > budget && !mustKeep) break;
    budget -= c;
    kept.unshift(turn);
    start = i;
  }
  const includeExamples = examples !== null && start === 0 && cost(examples) <= budget;

  const messages: ChatTurn[] = [system, ...(includeExamples && examples ? [examples] : []), ...kept];
  if (post) {
    // Instructions go after the history but before a reply being continued, so the model
    // still sees that reply as the last turn and extends it.
    if (mode === "continue") messages.splice(messages.length - 1, 0, post);
    else messages.push(post);
  }
  return {
    messages,
    contextStartMessageId: input.history[start]?.id ?? null,
    includedExamples: includeExamples,
    promptTokens: messages.reduce((sum, t) => sum + cost(t), 0),
  };
}
