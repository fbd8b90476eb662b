import { describe, expect, it } from "vitest";
import { readChatFile } from "../service.ts";
import { readDate } from "./dates.ts";
import { readHearthChat } from "./hearth.ts";
import { mapNames } from "./names.ts";
import { writeMarkdown, writePrintablePage } from "./readable.ts";
import { readSillyTavernChat } from "./sillytavern.ts";
import type { ExportedChat } from "./types.ts";

const jsonl = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join("\n");

describe("chat file formats", () => {
  it("reads SillyTavern's date forms, and nonsense as none", () => {
    expect(readDate("2024-05-01T20:01:00.000Z")?.toISOString()).toBe("2024-05-01T20:01:00.000Z");
    expect(readDate(1714593660000)?.toISOString()).toBe("2024-05-01T20:01:00.000Z");
    expect(readDate(1714593660)?.toISOString()).toBe("2024-05-01T20:01:00.000Z");
    expect(readDate("2024-05-01@20h01m00s")?.getMinutes()).toBe(1);
    expect(readDate("2024-05-01 @20h 01m 00s 250ms")?.getMilliseconds()).toBe(250);
    expect(readDate("May 1, 2024 8:01pm")?.getHours()).toBe(20);
    for (const junk of ["", "yesterday", null, {}, Number.NaN, -5e20]) expect(readDate(junk)).toBeNull();
  });

  it("keeps a swipe list's selected one when it has more than 100, and trusts mes over its swipe", () => {
    const swipes = Array.from({ length: 130 }, (_, i) => `swipe ${i}`);
    const chat = readSillyTavernChat(
      jsonl(
        { user_name: "A" },
        { name: "B", is_user: false, mes: "swipe 120", swipes, swipe_id: 120 },
        { name: "B", is_user: false, mes: "edited", swipes: ["one", "two"], swipe_id: 1 },
        { name: "B", is_user: false, mes: "out of range", swipes: ["x", "y"], swipe_id: 9 },
      ),
    );
    const [big, edited, clamped] = chat.messages;
    expect(chat.skippedAlternatives).toBe(30);
    expect(big?.alternatives).toHaveLength(100);
    expect(big?.alternatives[big.alternativeIndex]).toBe("swipe 120");
    expect(edited?.alternatives).toEqual(["one", "edited"]);
    expect([clamped?.alternativeIndex, clamped?.alternatives]).toEqual([1, ["x", "out of range"]]);
  });

  it("names a group chat's other speakers, whose messages become the character's", () => {
    const chat = readSillyTavernChat(
      jsonl(
        { user_name: "A", character_name: "Mira" },
        { name: "Mira", is_user: false, mes: "Hi" },
        { name: "Narrator", is_user: false, mes: "Rain falls." },
        { name: "Tomas", is_user: false, mes: "Evening." },
        { name: "Ghost", is_user: false, mes: "" },
      ),
    );
    expect([chat.characterName, chat.otherSpeakers]).toEqual(["Mira", ["Narrator", "Tomas"]]);
  });

  it("reads a chat whose first line is already a message (no header)", () => {
    const chat = readSillyTavernChat(
      jsonl({ name: "B", is_user: false, mes: "Hi" }, { is_user: true, mes: "Yo" }),
    );
    expect([chat.userName, chat.characterName, chat.otherSpeakers]).toEqual([null, "B", []]);
    expect(chat.messages.map((m) => m.role)).toEqual(["bot", "user"]);
  });

  it("maps the file's user name only as a whole word in its own case, and the macros in any case", () => {
    const chat = readSillyTavernChat(
      jsonl({ user_name: "Al" }, { is_user: true, mes: "Al and {{USER}} and <user>; also Alfred, al, Al's" }),
    );
    expect(mapNames(chat, "Mira", "Sam")).toBe(4);
    expect(chat.messages[0]?.alternatives[0]).toBe("Sam and Sam and Sam; also Alfred, al, Sam's");
  });

  it("tells Hearth's file from SillyTavern's, and refuses what is neither", () => {
    expect(readChatFile(Buffer.from(jsonl({ user_name: "A" }, { mes: "x" }))).format).toBe("sillytavern");
    const hearth = {
      format: "hearth-chat",
      version: 1,
      character: { id: "c", name: "C" },
      title: null,
      persona: null,
      messages: [],
    };
    expect(readChatFile(Buffer.from(`\uFEFF${JSON.stringify(hearth, null, 2)}`)).format).toBe("hearth");
    expect(() => readChatFile(Buffer.from("<html>"))).toThrow(/not a chat file/);
    expect(() => readHearthChat({ ...hearth, version: 2 })).toThrow(/damaged/);
  });

  it("holds a file's indexes to what an int4 column can hold: SillyTavern's clamped, Hearth's refused", () => {
    const swipes = (swipe_id: number) => ({
      name: "B",
      is_user: false,
      mes: "",
      swipes: ["x", "y"],
      swipe_id,
    });
    const chat = readSillyTavernChat(
      jsonl({ user_name: "A" }, swipes(2 ** 31), swipes(2 ** 63), swipes(-(2 ** 31) - 1)),
    );
    expect(chat.messages.map((m) => m.alternativeIndex)).toEqual([1, 1, 0]);
    const hearth =
      (message: Record<string, unknown>, memory: Record<string, unknown> = {}) =>
      () =>
        readHearthChat({
          format: "hearth-chat",
          version: 1,
          character: { id: "c", name: "C" },
          title: "T",
          persona: null,
          messages: [{ role: "bot", alternatives: ["a", "b"], alternative_index: 0, ...message }],
          memories: [{ content: "m", message_indexes: [0], ...memory }],
        });
    expect(hearth({ alternative_index: 1 })().messages[0]?.alternativeIndex).toBe(1);
    expect(hearth({ alternative_index: 2 ** 31 })).toThrow(/damaged.*alternative_index/);
    expect(hearth({ rating: 2 ** 31 })).toThrow(/damaged.*rating/);
    expect(hearth({}, { message_indexes: [2 ** 53] })).toThrow(/damaged.*message_indexes/);
  });

  it("keeps only Hearth's own image paths and memories that still have text and messages", () => {
    const chat = readHearthChat({
      format: "hearth-chat",
      version: 1,
      character: { id: "c", name: "C" },
      title: "T",
      persona: null,
      messages: [
        { role: "bot", alternatives: ["a"], alternative_index: 0, image_url: "https://evil.example/x.png" },
        {
          role: "bot",
          alternatives: ["b"],
          alternative_index: 0,
          image_url: "/api/files/x.webp",
          state: "streaming",
        },
      ],
      memories: [
        { content: "kept", message_indexes: [1] },
        { content: "\u0000", message_indexes: [] },
        { content: "gone", message_indexes: [5] },
      ],
    });
    expect(chat.messages.map((m) => [m.imageUrl, m.state])).toEqual([
      [null, "complete"],
      ["/api/files/x.webp", "interrupted"],
    ]);
    expect(chat.memories.map((m) => m.content)).toEqual(["kept"]);
  });

  it("escapes HTML in Markdown and on the printable page", () => {
    const chat: ExportedChat = {
      conversationId: "c",
      characterId: "ch",
      characterName: "<img src=x onerror=alert(1)>",
      title: null,
      persona: { id: null, name: "Sam & co" },
      createdAt: new Date("2024-05-01T20:00:00Z"),
      messages: [
        {
          id: "m",
          role: "bot",
          content: "<script>alert(1)</script>\nline two",
          alternatives: ["<script>alert(1)</script>\nline two"],
          alternativeIndex: 0,
          state: "complete",
          createdAt: new Date("2024-05-01T20:00:00Z"),
          imageUrl: null,
          imagePrompt: null,
          rating: null,
        },
      ],
      memories: [],
      lorebooks: [],
    };
    const md = writeMarkdown(chat);
    expect(md).toContain("> &lt;script&gt;alert(1)&lt;/script&gt;\n> line two");
    expect(md).not.toContain("<script>");
    const page = writePrintablePage(chat);
    expect(page).not.toMatch(/<script|<img/);
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(page).toContain("Sam &amp; co");
  });
});
