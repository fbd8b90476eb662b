import { describe, expect, it } from "vitest";
import {
  buildPrompt,
  buildPromptWithin,
  type HistoryMessage,
  type PromptInput,
  PromptTooLongError,
  resolveMacros,
} from "./prompt.ts";
import { cutDialogueLines, cutToTokens, shareBudget } from "./prompt-trim.ts";

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
  it("puts a card's personality after the description, as SillyTavern does", () => {
    const p = buildPrompt(input({ character: { ...character, personality: "warm, {{user}}'s ally" } }));
    const system = p.messages[0]?.content ?? "";
    expect(system).toContain(
      "You are Mira. Mira is a librarian who adores old maps.\nMira's personality: warm, Sam's ally\nScenario:",
    );
    // No personality, no line.
    expect(buildPrompt(input()).messages[0]?.content).not.toContain("personality:");
    // A personality alone still reads after the name.
    const alone = buildPrompt(input({ character: { ...character, persona: "", personality: "shy" } }));
    expect(alone.messages[0]?.content).toContain("You are Mira. Mira's personality: shy");
  });

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
    // Nothing was left out, so no "no longer used" marker.
    expect(p.contextStartMessageId).toBeNull();
    expect(p.trims).toEqual([]);
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
    expect(tight.contextStartMessageId).toBeNull();
    expect(tight.trims.map((t) => t.section)).toEqual(["examples"]);
    // Room for 12 messages: the 8 oldest go, and the cutoff is reported for the UI notice.
    const tighterContext = 200 + systemCost + 12 * perMessage;
    const tighter = buildPrompt(input({ history: history(20), contextTokens: tighterContext }));
    expect(tighter.includedExamples).toBe(false);
    expect(tighter.contextStartMessageId).toBe("m8");
    expect(tighter.messages.filter((m) => m.role !== "system")).toHaveLength(12);
    expect(tighter.promptTokens + 200).toBeLessThanOrEqual(tighterContext);
    expect(tighter.trims.map((t) => t.section)).toEqual(["examples", "history"]);
    // The definition was not touched: history is cut before it.
    expect(tighter.messages[0]?.content).toBe(full.messages[0]?.content);
  });

  it("keeps within the budget: prompt plus reply never exceed the context", () => {
    for (const contextTokens of [2048, 3072, 4096, 8192]) {
      const p = buildPrompt(input({ history: history(2000), contextTokens, replyTokens: 300 }));
      expect(p.promptTokens + 300).toBeLessThanOrEqual(contextTokens);
      expect(p.contextStartMessageId).not.toBe("m0");
    }
  });

  it("drops the <START> markers that separate a card's example chats", () => {
    const dialogue =
      "<START>\n{{user}}: Hi!\n{{char}}: Hello.\n\n<START>\n{{user}}: Bye.\n{{char}}: Farewell.";
    const p = buildPrompt(input({ character: { ...character, dialogue } }));
    expect(p.messages[1]?.content).toBe(
      "Example of how Mira talks:\nSam: Hi!\nMira: Hello.\nSam: Bye.\nMira: Farewell.",
    );
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

  it("refuses only a newest message that alone does not fit, saying how long it may be", () => {
    const huge = [{ id: "x", role: "user" as const, content: "word ".repeat(5000) }];
    let refused: unknown;
    try {
      buildPrompt(input({ history: huge, contextTokens: 1000 }));
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(PromptTooLongError);
    const error = refused as PromptTooLongError;
    expect(error.role).toBe("user");
    expect(error.messageTokens).toBe(5000);
    // 1000 - 200 for the reply - the core system turn ("You are Mira. Mira is ... maps." + the user line).
    const coreSystem =
      words("You are Mira. Mira is a librarian who adores old maps.\nYou are talking with Sam.") + 8;
    expect(error.maxTokens).toBe(1000 - 200 - coreSystem - 8);
    // A message exactly that long fits, and the definition around it is cut instead.
    const longest = [{ id: "y", role: "user" as const, content: "word ".repeat(error.maxTokens) }];
    const p = buildPrompt(input({ history: longest, contextTokens: 1000 }));
    expect(p.messages.at(-1)?.content).toBe("word ".repeat(error.maxTokens).trim());
    expect(p.promptTokens + 200).toBeLessThanOrEqual(1000);
  });
});

/** A long real-world card: ~3,000 tokens of definition, as SillyTavern's bundled Seraphina. */
const sentence = (i: number) => `Detail ${i} about the forest glade and its quiet guardian.`;
const longCard = {
  name: "Seraphina",
  persona: `{{char}} is a guardian of Eldoria's forest. ${Array.from({ length: 180 }, (_, i) => sentence(i)).join(" ")}`,
  scenario: Array.from({ length: 40 }, (_, i) => `Scene ${i}: {{user}} wakes in the glade, hurt.`).join(" "),
  dialogue: Array.from(
    { length: 30 },
    (_, i) => `{{user}}: Question ${i}?\n{{char}}: Answer ${i}, said gently.`,
  ).join("\n"),
  systemPrompt: Array.from({ length: 30 }, (_, i) => `Rule ${i}: write vividly and stay in character.`).join(
    " ",
  ),
  postHistoryInstructions: "Reply as {{char}} in one paragraph.",
};

describe("buildPrompt with a long card", () => {
  const cardTokens = words(
    [longCard.persona, longCard.scenario, longCard.dialogue, longCard.systemPrompt].join(" "),
  );

  it("is a ~3,000-token card", () => {
    expect(cardTokens).toBeGreaterThan(2500);
  });

  for (const contextTokens of [512, 2048]) {
    it(`fits a ${contextTokens}-token window, keeping the name, core description and newest message`, () => {
      const chat = [
        { id: "g", role: "bot" as const, content: "*Seraphina kneels beside you.* Rest now, {{user}}." },
        { id: "u", role: "user" as const, content: "Where am I, and who are you?" },
      ];
      const replyTokens = Math.floor(contextTokens / 3);
      const p = buildPrompt(input({ character: longCard, history: chat, contextTokens, replyTokens }));
      expect(p.promptTokens + replyTokens).toBeLessThanOrEqual(contextTokens);
      const system = p.messages[0]?.content ?? "";
      expect(system).toContain("You are Seraphina. Seraphina is a guardian of Eldoria's forest.");
      expect(system).toContain("You are talking with Sam.");
      expect(p.messages.some((m) => m.content === "Where am I, and who are you?")).toBe(true);
      // The greeting fits beside the newest message: no history was cut.
      expect(p.contextStartMessageId).toBeNull();
      const cut = new Map(p.trims.map((t) => [t.section, t]));
      expect(cut.get("examples")?.kept_tokens).toBe(0);
      expect(cut.has("history")).toBe(false);
      // Long definition text is cut, on sentence boundaries, with what was kept recorded.
      const description = cut.get("description");
      expect(description?.full_tokens).toBeGreaterThan(1500);
      expect(description?.kept_tokens).toBeLessThan(description?.full_tokens as number);
      expect(system).toMatch(/quiet guardian\.\n|forest\.\n/);
      expect(cut.get("scenario")?.kept_tokens ?? 0).toBeLessThan(cut.get("scenario")?.full_tokens ?? 1);
      // The description keeps the largest share of what definitions get.
      expect(description?.kept_tokens).toBeGreaterThan(cut.get("system_prompt")?.kept_tokens ?? 0);
    });
  }

  it("a bigger window keeps more of the card", () => {
    const chat = [{ id: "u", role: "user" as const, content: "Hello?" }];
    const kept = (contextTokens: number) =>
      buildPrompt(input({ character: longCard, history: chat, contextTokens, replyTokens: 150 })).trims.find(
        (t) => t.section === "description",
      )?.kept_tokens ?? Number.POSITIVE_INFINITY;
    expect(kept(2048)).toBeGreaterThan(kept(512));
    expect(kept(8192)).toBe(Number.POSITIVE_INFINITY); // nothing of it cut
  });

  it("cuts older history before the definition, down to history's share", () => {
    const chat = history(200);
    const p = buildPrompt(
      input({ character: longCard, history: chat, contextTokens: 2048, replyTokens: 300 }),
    );
    const sections = p.trims.map((t) => t.section);
    expect(sections.slice(0, 2)).toEqual(["examples", "history"]);
    expect(sections).toContain("description");
    const historyTokens = p.messages
      .filter((m) => m.role !== "system")
      .reduce((sum, m) => sum + words(m.content) + 8, 0);
    // History keeps at least 40% of what the prompt may use.
    expect(historyTokens).toBeGreaterThanOrEqual(Math.floor((2048 - 300) * 0.4) - 14);
    expect(p.contextStartMessageId).not.toBeNull();
    expect(p.promptTokens + 300).toBeLessThanOrEqual(2048);
  });
});

describe("buildPromptWithin", () => {
  it("tightens the budget when the model's own count of the chat is higher than the estimate", () => {
    const chat = history(40);
    // A template that adds 20 tokens a turn instead of the 8 estimated.
    const countPrompt = (turns: { content: string }[]) =>
      turns.reduce((sum, t) => sum + words(t.content) + 20, 0);
    const p = buildPromptWithin(input({ history: chat, contextTokens: 400, replyTokens: 100 }), countPrompt);
    expect(p.promptTokens).toBe(countPrompt(p.messages));
    expect(p.promptTokens + 100).toBeLessThanOrEqual(400);
  });
});

describe("trimming helpers", () => {
  it("cutToTokens keeps whole sentences, or whole words when even the first is too long", () => {
    const text = "One two three. Four five six! Seven eight nine? Ten.";
    expect(cutToTokens(text, 7, words)).toBe("One two three. Four five six!");
    expect(cutToTokens(text, 2, words)).toBe("One two");
    expect(cutToTokens(text, 100, words)).toBe(text);
    expect(cutToTokens(text, 0, words)).toBe("");
  });

  it("cutDialogueLines ends on the character's line", () => {
    const dialogue = "Sam: Hi\nMira: Hello there\nSam: How are you\nMira: Fine thanks";
    const isMira = (line: string) => line.startsWith("Mira:");
    expect(cutDialogueLines(dialogue, 7, words, isMira)).toBe("Sam: Hi\nMira: Hello there");
    expect(cutDialogueLines(dialogue, 1, words, isMira)).toBe("");
  });

  it("shareBudget gives small needs in full and shares the rest by weight", () => {
    expect(
      shareBudget(
        [
          { need: 10, weight: 1 },
          { need: 1000, weight: 3 },
          { need: 1000, weight: 1 },
        ],
        410,
      ),
    ).toEqual([10, 300, 100]);
    expect(shareBudget([{ need: 5, weight: 1 }], 100)).toEqual([5]);
  });
});

describe("buildPrompt with lore and memories", () => {
  const context = {
    loreBefore: "The harbor of {{char}}'s town is frozen.",
    loreAfter: "Tomas keeps the lighthouse.",
    loreAtDepth: [
      { depth: 2, content: "It is snowing." },
      { depth: 0, content: "A bell rings somewhere." },
    ],
    memories: ["{{user}} is a cartographer.", "{{user}} owes {{char}} three coins."],
  };

  it("puts lore around the card, memories after it, and depth lore inside the history", () => {
    const p = buildPrompt(input({ context }));
    const system = p.messages[0]?.content ?? "";
    const order = [
      "The harbor of Mira's town is frozen.",
      "You are Mira.",
      "Tomas keeps the lighthouse.",
      "What Mira remembers of this conversation:\n- Sam is a cartographer.\n- Sam owes Mira three coins.",
    ].map((text) => system.indexOf(text));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const contents = p.messages.map((m) => m.content);
    // Depth 0 follows the newest message; depth 2 sits two messages before the end.
    expect(contents.at(-1)).toBe("A bell rings somewhere.");
    expect(contents.slice(-5, -1)).toEqual([
      "message number 2 with some words",
      "It is snowing.",
      "message number 3 with some words",
      "message number 4 with some words",
    ]);
    expect(p.memoriesKept).toBe(2);
    expect(p.historyMessages).toBe(5);
    expect(p.trims).toEqual([]);
  });

  it("continue: depth lore never comes after the reply being extended", () => {
    const p = buildPrompt(
      input({ mode: "continue", context: { ...context, loreAtDepth: [{ depth: 0, content: "Bell." }] } }),
    );
    expect(p.messages.at(-1)?.content).toBe("message number 4 with some words");
    expect(p.messages.at(-2)?.content).toBe("Bell.");
  });

  it("cuts memories from the last when the window is tight, and drops depth lore over its share", () => {
    const many = Array.from({ length: 40 }, (_, i) => `Memory ${i} about the old harbor and its many ships.`);
    const bigDepth = [{ depth: 1, content: "word ".repeat(60) }];
    const p = buildPrompt(
      input({
        contextTokens: 400,
        replyTokens: 100,
        history: history(3),
        context: { loreBefore: "", loreAfter: "", loreAtDepth: bigDepth, memories: many },
      }),
    );
    expect(p.promptTokens + 100).toBeLessThanOrEqual(400);
    expect(p.memoriesKept).toBeGreaterThan(0);
    expect(p.memoriesKept).toBeLessThan(40);
    expect(p.messages[0]?.content).toContain("- Memory 0 about");
    expect(p.trims.map((t) => t.section)).toEqual(expect.arrayContaining(["memories", "lore_depth"]));
    expect(p.trims.find((t) => t.section === "lore_depth")).toMatchObject({ kept_tokens: 0 });
    expect(p.messages.some((m) => m.content.startsWith("word word"))).toBe(false);
  });
});
