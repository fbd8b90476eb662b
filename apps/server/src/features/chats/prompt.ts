import { type PromptSection, type PromptTrim, resolveMacros } from "@hearth/contract";
import type { ChatTurn } from "../../ports/llm.ts";
import { type CountTokens, cutDialogueLines, cutToTokens, shareBudget } from "./prompt-trim.ts";

/**
 * Prompt building: a pure function from a character, the user's persona and the history to the
 * turns the model sees, always within the model's window (prompt plus the reply's reserve).
 *
 * Turn order: the system turn (the creator's system prompt, lore placed before the character, then
 * the card: who the character is, the scenario, who the user is; lore placed after the character,
 * then the conversation's memories), example dialogues, the history (the greeting is its first
 * message) with lore placed at a depth inside it, post-history instructions.
 *
 * Budget priority, from what is given up first to what always stays:
 * 1. example dialogues (cut to whole exchanges, included only when history and definition are whole);
 * 2. older history, oldest first, but history keeps at least HISTORY_SHARE of the budget;
 * 3. definition text (description, scenario, system prompt, user persona, post-history
 *    instructions, lore, memories), cut on sentence boundaries to weighted shares of what is left;
 * lore at a depth takes at most DEPTH_LORE_SHARE of the budget, whole entries in order.
 * never: the character's name, the description's first sentence, and the newest message.
 * Every cut is recorded (`trims`). Only a newest message that alone does not fit is refused.
 */
export interface PromptCharacter {
  name: string;
  persona: string;
  /** A card's personality summary, placed after the description as SillyTavern does. */
  personality?: string;
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

/** What the lorebooks and the conversation's memories add to this turn's prompt. */
export interface PromptContext {
  /** Lorebook text placed before and after the character's card. */
  loreBefore: string;
  loreAfter: string;
  /** Lorebook entries inside the history, `depth` messages before its end (0: after the newest). */
  loreAtDepth: { depth: number; content: string }[];
  /** Memory lines, the most important first (pinned ones lead). */
  memories: string[];
}

export interface PromptInput {
  character: PromptCharacter;
  persona: PromptPersona;
  /** Oldest first. For `continue`, the last message is the bot message to extend. */
  history: HistoryMessage[];
  mode: PromptMode;
  /** Tokens the whole prompt plus the reply may use (the tier's context, capped by the model's window). */
  contextTokens: number;
  /** Tokens kept free for the reply. */
  replyTokens: number;
  /** Counts tokens as the model will (exact for the embedded engine, an estimate otherwise). */
  countTokens: CountTokens;
  /** Lore and memories, already chosen within their own budgets; none when absent. */
  context?: PromptContext;
}

export interface BuiltPrompt {
  messages: ChatTurn[];
  /** Id of the oldest history message sent when older ones were left out; null when none was. */
  contextStartMessageId: string | null;
  includedExamples: boolean;
  /** How many of the context's memories (from the first) the model saw. */
  memoriesKept: number;
  /** History messages the model saw, the newest included. */
  historyMessages: number;
  promptTokens: number;
  /** Sections that were cut to fit, with what was kept. */
  trims: PromptTrim[];
}

/** The newest message alone does not fit the window: the only prompt that is refused. */
export class PromptTooLongError extends Error {
  constructor(
    readonly role: "user" | "bot",
    readonly messageTokens: number,
    /** The most tokens that message could have. */
    readonly maxTokens: number,
  ) {
    super(`The newest message has ${messageTokens} tokens; at most ${maxTokens} fit this model.`);
  }
}

/** Per-turn overhead of chat templates (role markers, separators), counted on top of the text. */
export const TURN_OVERHEAD_TOKENS = 8;
/** History is cut before definitions, but keeps at least this share of the budget for itself. */
const HISTORY_SHARE = 0.4;
/** Lore placed inside the history takes at most this share of the budget. */
const DEPTH_LORE_SHARE = 0.15;
/** How the definition's budget is shared when it must be cut. */
const DEFINITION_WEIGHTS: Record<DefinitionSection, number> = {
  description: 6,
  scenario: 2,
  system_prompt: 2,
  user_persona: 1,
  post_history: 1,
  lore_before: 2,
  lore_after: 2,
  memories: 2,
};

type DefinitionSection = Exclude<PromptSection, "examples" | "history" | "lore_depth">;
type Definition = Record<DefinitionSection, string>;

// The one macro rule, shared with the client (greetings on profiles).
export { resolveMacros };

export function buildPrompt(input: PromptInput): BuiltPrompt {
  const { character, persona, mode, countTokens: count } = input;
  const fill = (text: string) => resolveMacros(text, character.name, persona.name).trim();
  const cost = (turn: ChatTurn | null) => (turn ? count(turn.content) + TURN_OVERHEAD_TOKENS : 0);
  const whole = input.contextTokens - input.replyTokens;

  const full: Definition = {
    system_prompt: fill(character.systemPrompt),
    description: describe(fill(character.persona), fill(character.personality ?? ""), character.name),
    scenario: fill(character.scenario),
    user_persona: fill(persona.description),
    post_history: fill(character.postHistoryInstructions),
    lore_before: fill(input.context?.loreBefore ?? ""),
    lore_after: fill(input.context?.loreAfter ?? ""),
    memories: (input.context?.memories ?? []).map((m) => `- ${fill(m)}`).join("\n"),
  };
  const render = (d: Definition) => renderDefinition(d, character.name, persona.name, mode);
  const definitionCost = (d: Definition) => {
    const r = render(d);
    return cost(r.system) + cost(r.post);
  };

  // Autopilot speaks for the user: the roles swap, so any chat template produces the user's turn.
  const history = input.history.map((m): ChatTurn => {
    const fromUser = m.role === "user";
    const role = mode === "autopilot" ? (fromUser ? "assistant" : "user") : fromUser ? "user" : "assistant";
    return { role, content: fill(m.content) };
  });
  const newest = history.at(-1) ?? null;
  const older = history.slice(0, -1);
  const newestCost = cost(newest);

  // What always stays: the name, the description's first sentence, the newest message.
  const firstSentence = full.description.split(/(?<=[.!?…])\s|\n/)[0] ?? "";
  const core: Definition = {
    ...emptyDefinition(),
    description: cutToTokens(firstSentence, Math.max(1, Math.floor(whole / 4)), count),
  };
  const coreCost = definitionCost(core);
  if (newest && coreCost + newestCost > whole) {
    const last = input.history.at(-1) as HistoryMessage;
    throw new PromptTooLongError(
      last.role,
      count(newest.content),
      Math.max(0, whole - coreCost - TURN_OVERHEAD_TOKENS),
    );
  }

  // Lore at a depth: whole entries in order while they fit their share (and beside the core).
  const depthRoom = Math.min(Math.floor(whole * DEPTH_LORE_SHARE), whole - coreCost - newestCost);
  const depthTurns: { depth: number; turn: ChatTurn }[] = [];
  let depthCost = 0;
  let depthFull = 0;
  for (const entry of input.context?.loreAtDepth ?? []) {
    const turn: ChatTurn = { role: "system", content: fill(entry.content) };
    depthFull += cost(turn);
    if (depthCost + cost(turn) > depthRoom) continue;
    depthCost += cost(turn);
    depthTurns.push({ depth: entry.depth, turn });
  }
  const available = input.contextTokens - input.replyTokens - depthCost;

  const olderCosts = older.map(cost);
  const olderTotal = olderCosts.reduce((a, b) => a + b, 0);
  const historyFloor = Math.min(olderTotal, Math.floor(available * HISTORY_SHARE));

  // Definitions: whole when they fit beside the history's floor, else cut to weighted shares.
  const definitionRoom = Math.max(coreCost, available - newestCost - historyFloor);
  const kept = fitDefinition(full, core, definitionRoom, definitionCost, count);
  const turns = render(kept);
  let room = available - definitionCost(kept) - newestCost;

  // History: newest first, whole messages, without gaps.
  let start = older.length;
  while (start > 0 && (olderCosts[start - 1] as number) <= room) {
    start--;
    room -= olderCosts[start] as number;
  }

  // Examples take only what is left, and only when the whole history and definition are in.
  const definitionWhole = kept === full;
  // Tavern cards separate example chats with <START> lines: markers for the front end, not text.
  const dialogue = fill(character.dialogue.replace(/^[ \t]*<START>[ \t]*$/gim, "").replace(/\n{2,}/g, "\n"));
  const examplesHeader = `Example of how ${character.name} talks:\n`;
  const examplesText =
    start === 0 && definitionWhole && dialogue
      ? cutDialogueLines(dialogue, room - TURN_OVERHEAD_TOKENS - count(examplesHeader), count, (line) =>
          line.startsWith(`${character.name}:`),
        )
      : "";
  const examples: ChatTurn | null = examplesText
    ? { role: "system", content: `${examplesHeader}${examplesText}` }
    : null;

  const shown = history.slice(start);
  // Deepest first, so each later insert still counts its depth from the end; never after a reply
  // being continued, which must stay the last turn.
  const minDepth = mode === "continue" ? 1 : 0;
  for (const { depth, turn } of [...depthTurns].sort((a, b) => b.depth - a.depth)) {
    const d = Math.max(minDepth, Math.min(depth, shown.length));
    shown.splice(shown.length - d, 0, turn);
  }
  const messages: ChatTurn[] = [turns.system, ...(examples ? [examples] : []), ...shown];
  if (turns.post) {
    // Instructions go after the history but before a reply being continued, so the model
    // still sees that reply as the last turn and extends it.
    if (mode === "continue" && newest) messages.splice(messages.length - 1, 0, turns.post);
    else messages.push(turns.post);
  }

  const trims: PromptTrim[] = [];
  const record = (section: PromptSection, keptText: string, fullText: string) => {
    if (keptText.length < fullText.length)
      trims.push({ section, kept_tokens: keptText ? count(keptText) : 0, full_tokens: count(fullText) });
  };
  record("examples", examplesText, dialogue);
  if (start > 0) {
    const keptTokens = olderCosts.slice(start).reduce((a, b) => a + b, 0) + newestCost;
    trims.push({ section: "history", kept_tokens: keptTokens, full_tokens: olderTotal + newestCost });
  }
  for (const section of Object.keys(full) as DefinitionSection[])
    record(section, kept[section], full[section]);
  if (depthCost < depthFull)
    trims.push({ section: "lore_depth", kept_tokens: depthCost, full_tokens: depthFull });

  return {
    messages,
    contextStartMessageId: start > 0 ? (input.history[start]?.id ?? null) : null,
    includedExamples: examples !== null,
    memoriesKept: kept.memories ? kept.memories.split("\n").length : 0,
    historyMessages: history.length - start,
    promptTokens: messages.reduce((sum, t) => sum + cost(t), 0),
    trims,
  };
}

/**
 * buildPrompt measured with the model's own count of the rendered chat (template markers
 * included): when the estimate per turn was short, the budget is tightened until it fits.
 */
export function buildPromptWithin(
  input: PromptInput,
  countPrompt: (turns: ChatTurn[]) => number,
): BuiltPrompt {
  let contextTokens = input.contextTokens;
  for (let attempt = 0; ; attempt++) {
    const built = buildPrompt({ ...input, contextTokens });
    const promptTokens = countPrompt(built.messages);
    const over = promptTokens + input.replyTokens - input.contextTokens;
    if (over <= 0 || attempt === 3) return { ...built, promptTokens };
    contextTokens -= over;
  }
}

/**
 * The description with the card's personality after it, in SillyTavern's words
 * ("{{char}}'s personality: ..."); both are the character's description when the prompt is cut.
 */
function describe(description: string, personality: string, charName: string): string {
  if (!personality) return description;
  const line = `${charName}'s personality: ${personality}`;
  return description ? `${description}\n${line}` : line;
}

function emptyDefinition(): Definition {
  return {
    system_prompt: "",
    description: "",
    scenario: "",
    user_persona: "",
    post_history: "",
    lore_before: "",
    lore_after: "",
    memories: "",
  };
}

/**
 * The definition within `room` tokens: whole when it fits, else each section cut on sentence
 * boundaries to its weighted share, never below the core. Structure text (labels, turn markers)
 * is not shared out, so the cut is measured and tightened until the result fits.
 */
function fitDefinition(
  full: Definition,
  core: Definition,
  room: number,
  measure: (d: Definition) => number,
  count: CountTokens,
): Definition {
  if (measure(full) <= room) return full;
  const sections = Object.keys(full) as DefinitionSection[];
  const needs = sections.map((s) => (full[s] ? count(full[s]) : 0));
  let textBudget = room - (measure(full) - needs.reduce((a, b) => a + b, 0));
  for (let attempt = 0; attempt < 4; attempt++) {
    const grants = shareBudget(
      sections.map((s, i) => ({ need: needs[i] as number, weight: DEFINITION_WEIGHTS[s] })),
      textBudget,
    );
    const cut = Object.fromEntries(
      sections.map((s, i) => {
        const text = cutToTokens(full[s], grants[i] as number, count);
        return [s, text.length >= core[s].length ? text : core[s]];
      }),
    ) as Definition;
    const over = measure(cut) - room;
    if (over <= 0) return cut;
    textBudget -= Math.max(over, 1);
  }
  return core;
}

function renderDefinition(
  d: Definition,
  charName: string,
  userName: string,
  mode: PromptMode,
): { system: ChatTurn; post: ChatTurn | null } {
  // The card reads as the bundled model was trained ("You are X. ... You are talking with Y."),
  // which is also a plain, effective system prompt for larger models.
  const card = [`You are ${charName}.${d.description ? ` ${d.description}` : ""}`];
  if (d.scenario) card.push(`Scenario: ${d.scenario}`);
  card.push(`You are talking with ${userName}.${d.user_persona ? ` ${d.user_persona}` : ""}`);
  const parts = [d.system_prompt, d.lore_before, card.join("\n"), d.lore_after].filter(Boolean);
  if (d.memories) parts.push(`What ${charName} remembers of this conversation:\n${d.memories}`);
  if (mode === "autopilot") {
    parts.push(
      `Now write ${userName}'s next message to ${charName}, in ${userName}'s voice. Only that message.`,
    );
  }
  return {
    system: { role: "system", content: parts.join("\n\n") },
    post: d.post_history ? { role: "system", content: d.post_history } : null,
  };
}
