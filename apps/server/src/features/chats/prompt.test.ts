import { describe, expect, it } from "vitest";
import { buildPrompt, type HistoryMessage, type PromptInput, resolveMacros } from "./prompt.ts";

/** One token per word, so budgets in tests are easy to reason about. */
const words = (text: string) => (text.trim() ? text.trim().split(/\s+/).length : 0);

const character = {
  name: "Mira",
  persona: "{{char}} is a librarian who adores old maps.",
  scenario: "{{user}} walks into {{char}}'s library at dusk.",
  dialogue: "{{user}}: Hi!\n{{char}}: *looks up* Welcome, {{user}}.",
  systemPrompt: "",
  postHistoryInstructions: "",
};
const persona = { name: "Sam", description: "A curious sailor." };

const history = (n: number): HistoryMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `m${i}`,
    role: i % 2 === 0 ? ("bot" as const) : ("user" as const),
    content: `message number ${i} with some words`,
  }));

const input = (over: Partial<PromptInput> = {}): PromptInput => ({
  character,
  persona,
  history: history(5),
  mode: "reply",
  contextTokens: 2048,
  replyTokens: 200,
  countTokens: words,
  ...over,
});

describe("resolveMacros", () => {
  it("resolves {{char}} and {{user}} in any case and spacing, and the legacy forms", () => {
    expect(resolveMacros("{{char}} {{ USER }} {{Char}} <BOT> <user>", "Mira", "Sam")).toBe(
      "Mira Sam Mira Mira Sam",
    );
  });
});

describe("buildPrompt", () => {
  it("orders the card (character, scenario, user persona), examples, history", () => {
    const p = buildPrompt(input());
    expect(p.messages.map((m) => m.role)).toEqual([
      "system",
      "system",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(p.messages[0]?.content).toBe(
      "You are Mira. Mira is a librarian who adores old maps.\nScenario: Sam walks into Mira's library at dusk.\nYou are talking with Sam. A curious sailor.",
    );
    expect(p.messages[1]?.content).toContain("Sam: Hi!\nMira: *looks up* Welcome, Sam.");
    expect(p.includedExamples).toBe(true);
    expect(p.contextStartMessageId).toBe("m0");
  });

  it("uses the character's own system prompt when it has one, and puts post-history instructions last", () => {
    const p = buildPrompt(
      input({
        character: {
          ...character,
          systemPrompt: "Be {{char}}.",
          postHistoryInstructions: "Stay brief, {{user}}.",
        },
      }),
    );
    expect(p.messages[0]?.content.startsWith("Be Mira.\n\nYou are Mira.")).toBe(true);
    expect(p.messages.at(-1)).toEqual({ role: "system", content: "Stay brief, Sam." });
  });

  it("drops example dialogues before any history, then the oldest history first", () => {
    const full = buildPrompt(input({ history: history(20) }));
    expect(full.includedExamples).toBe(true);
    const systemCost = words(full.messages[0]?.content ?? "") + 8;
    const exampleCost = words(full.messages[1]?.content ?? "") + 8;
    const perMessage = 6 + 8;
    // Room for all 20 messages but not the examples as well.
    const tight = buildPrompt(
      input({ history: history(20), contextTokens: 200 + systemCost + 20 * perMessage + exampleCost - 1 }),
    );
    expect(tight.includedExamples).toBe(false);
    expect(tight.contextStartMessageId).toBe("m0");
    // Room for 12 messages: the 8 oldest go, and the cutoff is reported for the UI notice.
    const tighterContext = 200 + systemCost + 12 * perMessage;
    const tighter = buildPrompt(input({ history: history(20), contextTokens: tighterContext }));
    expect(tighter.includedExamples).toBe(false);
    expect(tighter.contextStartMessageId).toBe("m8");
    expect(tighter.messages.filter((m) => m.role !== "system")).toHaveLength(12);
    expect(tighter.promptTokens + 200).toBeLessThanOrEqual(tighterContext);
  });

  it("keeps within the budget: prompt plus reply never exceed the context", () => {
    for (const contextTokens of [2048, 3072, 4096, 8192]) {
      const p = buildPrompt(input({ history: history(2000), contextTokens, replyTokens: 300 }));
      expect(p.promptTokens + 300).toBeLessThanOrEqual(contextTokens);
      expect(p.contextStartMessageId).not.toBe("m0");
    }
  });

  it("resolves macros in the history too", () => {
    const p = buildPrompt(
      input({ history: [{ id: "a", role: "bot", content: "Hello {{user}}, I am {{char}}." }] }),
    );
    expect(p.messages.at(-1)?.content).toBe("Hello Sam, I am Mira.");
  });

  it("continue: the bot message being extended stays last, after the instructions", () => {
    const p = buildPrompt(
      input({ mode: "continue", character: { ...character, postHistoryInstructions: "Be brief." } }),
    );
    expect(p.messages.at(-1)).toEqual({ role: "assistant", content: "message number 4 with some words" });
    expect(p.messages.at(-2)).toEqual({ role: "system", content: "Be brief." });
  });

  it("autopilot: roles swap so the model writes the user's next message", () => {
    const p = buildPrompt(input({ mode: "autopilot", history: history(4) }));
    expect(p.messages[0]?.content).toContain("Now write Sam's next message to Mira");
    // The last message was the user's (m3): it becomes the assistant side; the bot's become user turns.
    expect(p.messages.slice(-2).map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("always keeps the newest message, even when it alone is over budget", () => {
    const huge = [{ id: "x", role: "user" as const, content: "word ".repeat(5000) }];
    const p = buildPrompt(input({ history: huge, contextTokens: 1000 }));
    expect(p.contextStartMessageId).toBe("x");
  });
});
