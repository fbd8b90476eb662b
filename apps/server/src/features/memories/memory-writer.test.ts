import { describe, expect, it } from "vitest";
import { extractMemories, isNearDuplicate, memoryPrompt, readModelMemories } from "./memory-writer.ts";

const messages = [
  { id: "m1", speaker: "Sam", content: "Hi! How are you today?" },
  {
    id: "m2",
    speaker: "Mira",
    content:
      "*smiles* I'm well. Oh, look at this. *unrolls a chart* The Silver Road runs from Eastwatch to Harrowgate.",
  },
  { id: "m3", speaker: "Sam", content: "I buried the brass key under the old oak by the river. Okay." },
  { id: "m4", speaker: "Mira", content: "Good. Nobody will look there." },
];

describe("memories written by the model", () => {
  it("keeps grounded facts, each tied to the messages that share its words", () => {
    const answer = [
      "Here are the facts:",
      "- Sam buried the brass key under the old oak by the river.",
      "- The Silver Road runs from Eastwatch to Harrowgate.",
      "- none",
    ].join("\n");
    expect(readModelMemories(answer, messages)).toEqual([
      { content: "Sam buried the brass key under the old oak by the river.", messageIds: ["m3"] },
      { content: "The Silver Road runs from Eastwatch to Harrowgate.", messageIds: ["m2"] },
    ]);
  });

  it("drops what the messages never said, lines too short, and repeats", () => {
    const answer = [
      "- Mira is secretly the queen of a dragon kingdom beyond the sea.",
      "- Key buried.",
      "1. Sam buried the brass key under the old oak.",
      "2) Sam buried the brass key under the old oak tree by the river.",
    ].join("\n");
    expect(readModelMemories(answer, messages).map((m) => m.content)).toEqual([
      "Sam buried the brass key under the old oak.",
    ]);
  });

  it("asks for short, self-contained facts as '- ' lines, after the transcript", () => {
    const [system, user] = memoryPrompt(messages);
    expect(system?.role).toBe("system");
    expect(system?.content).toMatch(/one per line, each starting with "- "/);
    expect(user?.content).toContain("Sam: I buried the brass key");
    expect(user?.content.endsWith("Facts to remember:")).toBe(true);
  });
});

describe("memories taken from the messages themselves", () => {
  it("quotes the most informative sentences with their speaker, oldest first, never questions or chatter", () => {
    const written = extractMemories(messages);
    expect(written).toEqual([
      { content: "Mira: The Silver Road runs from Eastwatch to Harrowgate.", messageIds: ["m2"] },
      { content: "Sam: I buried the brass key under the old oak by the river.", messageIds: ["m3"] },
    ]);
  });

  it("writes nothing from small talk", () => {
    expect(
      extractMemories([
        { id: "a", speaker: "Sam", content: "Hello there! How are you?" },
        { id: "b", speaker: "Mira", content: "Oh, I'm fine. Thanks." },
      ]),
    ).toEqual([]);
  });

  it("keeps a memory within 250 characters, cut at a word", () => {
    const long = `The caravan left Eastwatch ${"with barrels of salted fish and crates of lamp oil ".repeat(8)}at dawn.`;
    const [memory] = extractMemories([{ id: "x", speaker: "Mira", content: long }]);
    expect(memory?.content.length).toBeLessThanOrEqual(250);
    expect(memory?.content.endsWith("…")).toBe(true);
    expect(memory?.content).not.toMatch(/ …$/);
  });
});

describe("near duplicates", () => {
  it("are the same facts in nearly the same words, not merely related ones", () => {
    expect(
      isNearDuplicate("Sam buried the brass key by the river.", "sam buried the brass key by the river"),
    ).toBe(true);
    expect(
      isNearDuplicate("Sam buried the brass key by the river.", "Sam lost the brass key in Eastwatch."),
    ).toBe(false);
  });
});
