// Loading and prompting the tiny model with node-llama-cpp, shared by smoke.ts and the tests.
// It is also the reference for how the server should drive the model.
import {
  type ChatHistoryItem,
  getLlama,
  LlamaChatSession,
  type LlamaContext,
  type LlamaModel,
  resolveChatWrapper,
} from "node-llama-cpp";

export interface CharacterCard {
  name: string;
  /** Who the character is: one sentence to pages of prose, lists and markdown. */
  description: string;
  scenario?: string;
  /** The user's persona name. */
  userName: string;
  /** The user's persona description, after "You are talking with {user}.". */
  userPersona?: string;
  /** The creator's system prompt, before the card. */
  systemPrompt?: string;
}

/**
 * The system turn as apps/server/src/features/chats/prompt.ts renders it, which is the format
 * the model was trained on (generate-dialogues.py: Character.card).
 */
export function cardText(card: CharacterCard): string {
  const lines = [`You are ${card.name}.${card.description ? ` ${card.description}` : ""}`];
  if (card.scenario) lines.push(`Scenario: ${card.scenario}`);
  lines.push(`You are talking with ${card.userName}.${card.userPersona ? ` ${card.userPersona}` : ""}`);
  const text = lines.join("\n");
  return card.systemPrompt ? `${card.systemPrompt}\n\n${text}` : text;
}

export interface TinyModel {
  model: LlamaModel;
  context: LlamaContext;
  dispose(): Promise<void>;
}

/** CPU only, one thread: llama.cpp oversubscribes 2-core machines otherwise and crawls. */
export async function loadTinyModel(modelPath: string, contextSize = 2048): Promise<TinyModel> {
  const llama = await getLlama({ gpu: false });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize, threads: 1 });
  return {
    model,
    context,
    async dispose() {
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}

/** System turn, optional example-dialogue system turn ("Example of how X talks:\n..."), greeting. */
function history(card: CharacterCard, greeting?: string, examples?: string): ChatHistoryItem[] {
  const items: ChatHistoryItem[] = [{ type: "system", text: cardText(card) }];
  if (examples) items.push({ type: "system", text: examples });
  if (greeting) items.push({ type: "model", response: [greeting] });
  return items;
}

/** The exact prompt text (special tokens included) the chat wrapper builds for one user turn. */
export function renderPrompt(
  tiny: TinyModel,
  card: CharacterCard,
  greeting: string | undefined,
  userText: string,
): { text: string; wrapperName: string } {
  const wrapper = resolveChatWrapper(tiny.model);
  const chatHistory: ChatHistoryItem[] = [
    ...history(card, greeting),
    { type: "user", text: userText },
    { type: "model", response: [] },
  ];
  const { contextText } = wrapper.generateContextState({ chatHistory });
  const tokens = contextText.tokenize(tiny.model.tokenizer);
  return { text: tiny.model.detokenize(tokens, true), wrapperName: wrapper.wrapperName };
}

export interface TurnOptions {
  greeting?: string;
  /** The example-dialogue system turn, as the server sends it. */
  examples?: string;
  temperature?: number;
  seed?: number;
  maxTokens?: number;
  onTextChunk?: (text: string) => void;
}

/** One user turn against a fresh chat: system card, optional greeting, then the user's text. */
export async function replyInCharacter(
  tiny: TinyModel,
  card: CharacterCard,
  userText: string,
  options: TurnOptions = {},
): Promise<{ reply: string; wrapperName: string }> {
  const sequence = tiny.context.getSequence();
  try {
    const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: cardText(card) });
    session.setChatHistory(history(card, options.greeting, options.examples));
    const reply = await session.prompt(userText, {
      temperature: options.temperature ?? 0,
      seed: options.seed ?? 1,
      maxTokens: options.maxTokens ?? 200,
      onTextChunk: options.onTextChunk,
      // Greedy tests and samples: no penalty (replies repeat the names they must copy).
      repeatPenalty: false,
    });
    return { reply, wrapperName: session.chatWrapper.wrapperName };
  } finally {
    sequence.dispose();
  }
}
