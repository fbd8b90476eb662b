import { MEMORY_CONTENT_MAX } from "@hearth/contract";
import type { ChatTurn } from "../../ports/llm.ts";

/**
 * Turning a few messages into memories. The model is asked for short, self-contained facts; what
 * it answers is kept only when grounded in the messages (most of its words appear there), which
 * is what stops the invented "rolling summaries" roleplayers complain of. A model too small to
 * follow the instruction (the bundled one) gets no say: the most informative sentences of the
 * messages themselves become the memories, each tied to the one message it came from.
 */

export interface SourceMessage {
  id: string;
  /** Who said it: the persona's or the character's name. */
  speaker: string;
  content: string;
}

export interface WrittenMemory {
  content: string;
  /** The messages it was written from: editing or removing any of them invalidates it. */
  messageIds: string[];
}

/** Memories one batch of messages may add. */
export const MEMORIES_PER_BATCH = 4;
/** Share of a model-written memory's content words that must occur in the messages. */
const GROUNDING = 0.7;
/** Shortest memory worth keeping, in words. */
const MIN_WORDS = 4;

const STOPWORDS = new Set(
  (
    "the and for are but not you your yours with this that these those from have has had was were " +
    "will would could should can may might must shall into onto over under about above below just " +
    "than then there their them they she her hers him his its our ours out who what when where why " +
    "how all any both each few more most other some such only own same very too also again once " +
    "here off yes yeah okay well now get got let lets oh ah um hmm like really maybe been being do " +
    "does did done say said says tell told know think want going gonna back down come came look " +
    "looks looked"
  ).split(" "),
);

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
const contentWords = (text: string) =>
  wordsOf(text)
    .map((w) => w.replace(/'s$|'/g, ""))
    .filter((w) => (w.length >= 3 || /\p{N}/u.test(w)) && !STOPWORDS.has(w));

/** Characters of one message the transcript keeps: a batch stays within a small model's window. */
const TRANSCRIPT_MESSAGE_MAX = 1200;

/** The instruction and the transcript for a model that can follow one. */
export function memoryPrompt(messages: readonly SourceMessage[]): ChatTurn[] {
  const transcript = messages
    .map(
      (m) =>
        `${m.speaker}: ${m.content.length > TRANSCRIPT_MESSAGE_MAX ? `${m.content.slice(0, TRANSCRIPT_MESSAGE_MAX)}…` : m.content}`,
    )
    .join("\n");
  return [
    {
      role: "system",
      content:
        "You keep the long-term memory of a roleplay. From the conversation below, write the facts " +
        "worth remembering later: who did what, where, and how it turned out; names, places, " +
        "promises, secrets, relationships. Each fact is one short sentence that makes sense on its " +
        `own (use names, not "I" or "you"), under ${MEMORY_CONTENT_MAX} characters. Write at most ` +
        `${MEMORIES_PER_BATCH} facts, one per line, each starting with "- ". Write only facts that ` +
        'the conversation states. If nothing is worth remembering, write "- none".',
    },
    { role: "user", content: `${transcript}\n\nFacts to remember:` },
  ];
}

/** Cuts a text to the memory limit at a word boundary. */
function fit(text: string): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= MEMORY_CONTENT_MAX) return clean;
  const cut = clean.slice(0, MEMORY_CONTENT_MAX - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), MEMORY_CONTENT_MAX / 2))}…`;
}

/** Nearly the same words: a memory already kept, in other words. */
export function isNearDuplicate(a: string, b: string): boolean {
  const x = new Set(contentWords(a));
  const y = new Set(contentWords(b));
  if (x.size === 0 || y.size === 0) return a.trim().toLowerCase() === b.trim().toLowerCase();
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  // One saying all the other does (and more) repeats it; facts that differ in one name or number
  // out of several words are different facts.
  if (shared === Math.min(x.size, y.size) && shared >= 4) return true;
  return shared / (x.size + y.size - shared) >= 0.85;
}

/**
 * The model's answer as memories: its "- " lines that are long enough, grounded in the messages,
 * and new. Each names the messages that share its words (all of them when none clearly does).
 */
export function readModelMemories(answer: string, messages: readonly SourceMessage[]): WrittenMemory[] {
  const known = new Set(messages.flatMap((m) => [...contentWords(m.content), ...contentWords(m.speaker)]));
  const written: WrittenMemory[] = [];
  for (const line of answer.split("\n")) {
    const item = line.match(/^\s*(?:[-*•]|\d+[.)])\s+(.*)$/)?.[1]?.trim();
    if (!item || /^none\.?$/i.test(item)) continue;
    const content = fit(item);
    const words = contentWords(content);
    if (wordsOf(content).length < MIN_WORDS || words.length === 0) continue;
    if (words.filter((w) => known.has(w)).length / words.length < GROUNDING) continue;
    if (written.some((m) => isNearDuplicate(m.content, content))) continue;
    const sources = messages.filter((m) => {
      const own = new Set(contentWords(m.content));
      return words.filter((w) => own.has(w)).length >= Math.min(2, words.length);
    });
    written.push({ content, messageIds: (sources.length > 0 ? sources : messages).map((m) => m.id) });
    if (written.length === MEMORIES_PER_BATCH) break;
  }
  return written;
}

/** A sentence's worth as a memory: names, numbers and content words count; questions and chatter do not. */
function informativeness(sentence: string): number {
  const words = wordsOf(sentence);
  if (words.length < MIN_WORDS || /\?\s*$/.test(sentence)) return 0;
  const content = contentWords(sentence).length;
  const names = (sentence.slice(1).match(/(?<![.!?]\s)\b\p{Lu}\p{Ll}+/gu) ?? []).length;
  const numbers = (sentence.match(/\p{N}+/gu) ?? []).length;
  return content + 2 * names + 2 * numbers;
}

/** Below this a sentence is small talk, not a fact. */
const MIN_INFORMATIVENESS = 6;

/**
 * Memories from the messages' own sentences, for models that cannot write them: the most
 * informative sentences, each quoted with its speaker and tied to its message.
 */
export function extractMemories(messages: readonly SourceMessage[]): WrittenMemory[] {
  const candidates: { content: string; messageId: string; score: number; order: number }[] = [];
  let order = 0;
  for (const m of messages) {
    // Roleplay actions (*leans closer*) are narration apart from the speech around them.
    const parts = m.content.split(/\*+/).map((part) => part.replace(/\s+/g, " ").trim());
    for (const sentence of parts.flatMap((part) => part.match(/[^.!?…]+[.!?…]*/g) ?? [])) {
      const text = sentence.trim();
      const score = informativeness(text);
      if (score < MIN_INFORMATIVENESS) continue;
      candidates.push({ content: fit(`${m.speaker}: ${text}`), messageId: m.id, score, order: order++ });
    }
  }
  const chosen: typeof candidates = [];
  for (const c of [...candidates].sort((a, b) => b.score - a.score || a.order - b.order)) {
    if (chosen.some((k) => isNearDuplicate(k.content, c.content))) continue;
    chosen.push(c);
    if (chosen.length === MEMORIES_PER_BATCH) break;
  }
  return chosen
    .sort((a, b) => a.order - b.order)
    .map((c) => ({ content: c.content, messageIds: [c.messageId] }));
}
