import { zipSync } from "fflate";
import { base64, characterBook, insertChunks, plainPng, textChunk } from "./test-helpers.ts";

/**
 * The card corpus of the lossless round-trip test: hand-made cards of every version and
 * container with every field and unusual values, plus generated ones.
 */

export type Container = "json" | "png" | "charx";

export interface CorpusCard {
  label: string;
  container: Container;
  /** The card object as written (V1: the flat object). */
  card: Record<string, unknown>;
  file: Buffer;
  /** CharX: the archive's files besides card.json. */
  files?: Record<string, Buffer>;
}

const RTL = "مرحبا يا {{user}}، أنا {{char}}. שלום עולם";
const EMOJI = "🧭🗺️👩🏽‍🚀 🏳️‍🌈 ❤️‍🔥";

/** A lorebook of `n` entries, with nested entry extensions. */
export function hugeBook(n: number) {
  return {
    ...characterBook,
    name: `Atlas ${EMOJI}`,
    entries: Array.from({ length: n }, (_, i) => ({
      keys: [`key${i}`, `ключ${i}`],
      secondary_keys: i % 3 === 0 ? [`sec${i}`] : [],
      content: `Entry ${i}: ${i % 2 ? RTL : EMOJI} ${"lore ".repeat(20)}`,
      extensions: { depth: i % 5, nested: { list: [i, { deep: { deeper: [null, true, 1.5] } }] } },
      enabled: i % 7 !== 0,
      insertion_order: i,
      case_sensitive: i % 2 === 0 ? true : null,
      id: i,
      position: i % 2 ? "before_char" : "after_char",
    })),
  };
}

const unknownExtensions = {
  talkativeness: "0.5",
  fav: false,
  world: "Atlas",
  depth_prompt: { prompt: "{{char}} hums.", depth: 4, role: "system" },
  "x-vendor/app": { settings: { "z-last": 1, "a-first": 2, nested: { arr: [[1, [2, [3]]], {}] } } },
  risuai: { utilityBot: false, customScripts: [{ in: "a", out: "b", type: "editinput" }] },
  "emoji_key_🗝️": EMOJI,
  empty_object: {},
  number_like: 1e21,
  negative_zero: 0,
};

/** Every V2 field, with unusual values. */
export function fullV2Data(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `Zoë ${EMOJI}`,
    description: `${RTL}\n\n{{char}} draws maps.\u200f Trailing spaces   `,
    personality: "curious, dry humour; לא צפוי",
    scenario: "A lighthouse.\r\nWindows line ends.",
    first_mes: "*{{char}} looks up.* Oh, {{user}}! <USER> <BOT>",
    mes_example: "<START>\n{{user}}: Hi\n{{char}}: Hello.",
    creator_notes: "Best with long replies.\nSecond line — not a tagline.",
    system_prompt: "{{original}} Write as {{char}}.",
    post_history_instructions: "Stay in character.",
    alternate_greetings: ["Second {{char}}", "", "   ", RTL],
    tags: [
      "White Hair",
      "OC",
      "oc",
      "NSFW 🔞",
      "sci/fi",
      " Slice of Life ",
      ...Array.from({ length: 12 }, (_, i) => `Tag ${i}`),
    ],
    creator: "alice 🌙",
    character_version: "v2.1-β",
    character_book: hugeBook(3),
    extensions: unknownExtensions,
    ...over,
  };
}

export function fullV3Data(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...fullV2Data(),
    nickname: "Zo",
    creator_notes_multilingual: { en: "English notes", ar: RTL, ja: "メモ" },
    source: ["https://example.org/zoe", "id:1234"],
    group_only_greetings: ["{{char}} greets the party.", ""],
    creation_date: 1_700_000_000,
    modification_date: 1_700_000_500,
    assets: [
      { type: "icon", uri: "ccdefault:", name: "main", ext: "png" },
      { type: "background", uri: "https://example.org/bg.webp", name: "bg", ext: "webp" },
    ],
    x_future_field: { kept: [1, { two: 2 }] },
    ...over,
  };
}

const v2 = (data: Record<string, unknown>) => ({ spec: "chara_card_v2", spec_version: "2.0", data });
const v3 = (data: Record<string, unknown>) => ({ spec: "chara_card_v3", spec_version: "3.0", data });
const json = (card: unknown) => Buffer.from(JSON.stringify(card, null, 2), "utf8");

/** A deterministic generator (mulberry32) for the generated part of the corpus. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = [
  "a",
  "Z",
  " ",
  "\n",
  "é",
  "ß",
  "漢",
  "ع",
  "ש",
  "😀",
  "👩🏽‍🚀",
  "{{char}}",
  "{{user}}",
  "<",
  '"',
  "\\",
  "\t",
  "\u200f",
];

function generatedData(seed: number): Record<string, unknown> {
  const rnd = random(seed);
  const text = (max: number) =>
    Array.from({ length: Math.floor(rnd() * max) }, () => ALPHABET[Math.floor(rnd() * ALPHABET.length)]).join(
      "",
    );
  const name = `Gen ${seed} ${text(8).replace(/\s/g, "")}`.trim();
  return {
    name,
    description: text(200),
    personality: text(40),
    scenario: text(60),
    first_mes: text(80),
    mes_example: text(80),
    creator_notes: text(60),
    system_prompt: text(30),
    post_history_instructions: text(30),
    alternate_greetings: Array.from({ length: Math.floor(rnd() * 4) }, () => text(30)),
    tags: Array.from({ length: Math.floor(rnd() * 6) }, (_, i) => `${rnd() < 0.5 ? "Tag" : "tag"} ${i}`),
    creator: text(10),
    character_version: String(Math.floor(rnd() * 10)),
    extensions: { [`gen_${seed}`]: { value: text(10), n: Math.floor(rnd() * 1000) } },
    ...(rnd() < 0.5 ? { character_book: hugeBook(Math.floor(rnd() * 5)) } : {}),
  };
}

/** A 400 x 600 portrait PNG with a non-card text chunk (it must survive too). */
export async function portraitPngFile(card: unknown, keywords: Array<"chara" | "ccv3">): Promise<Buffer> {
  const png = await plainPng(400, 600);
  const chunks = [textChunk("Comment", "drawn by hand"), ...keywords.map((k) => textChunk(k, base64(card)))];
  return insertChunks(png, chunks);
}

export async function corpus(): Promise<CorpusCard[]> {
  const out: CorpusCard[] = [];
  const add = (
    label: string,
    container: Container,
    card: Record<string, unknown>,
    file: Buffer,
    files?: Record<string, Buffer>,
  ) => out.push({ label, container, card, file, ...(files ? { files } : {}) });

  const v1 = {
    name: "Bob 🍞",
    description: "{{char}} bakes.",
    personality: "cheerful",
    scenario: RTL,
    first_mes: "Hi {{user}}",
    mes_example: "",
  };
  add("V1 JSON", "json", v1, json({ ...v1, chat: "Bob - 2024", fav: true }));
  add("V1 PNG (chara)", "png", v1, await portraitPngFile(v1, ["chara"]));
  add("V2 JSON, every field", "json", v2(fullV2Data()), json(v2(fullV2Data())));
  add(
    "V2 PNG (chara), every field",
    "png",
    v2(fullV2Data()),
    await portraitPngFile(v2(fullV2Data()), ["chara"]),
  );
  add("V3 JSON, every field", "json", v3(fullV3Data()), json(v3(fullV3Data())));
  add(
    "V3 PNG (ccv3 and chara)",
    "png",
    v3(fullV3Data()),
    insertChunks(await portraitPngFile(v3(fullV3Data()), ["ccv3"]), [
      textChunk("chara", base64(v2(fullV2Data()))),
    ]),
  );
  add(
    "V3 JSON, huge lorebook, empty notes with multilingual ones, long description",
    "json",
    v3(fullV3Data({ character_book: hugeBook(1500), creator_notes: "", description: "d".repeat(60_000) })),
    json(
      v3(fullV3Data({ character_book: hugeBook(1500), creator_notes: "", description: "d".repeat(60_000) })),
    ),
  );
  const sparse = { name: "Sparse", first_mes: "Hello" };
  add("V3 JSON with only a name and greeting", "json", v3(sparse), json(v3(sparse)));

  const icon = await plainPng(300, 450);
  const files = {
    "assets/icon/images/main.png": icon,
    "assets/other/image/bg.png": await plainPng(16, 9),
    "assets/emotion/image/happy.webp": Buffer.from("RIFF\u0000\u0000\u0000\u0000WEBPfake", "latin1"),
    "assets/audio/theme.mp3": Buffer.from([0x49, 0x44, 0x33, 1, 2, 3]),
    "module.risum": Buffer.from([0, 1, 2, 3, 255]),
  };
  const charxData = fullV3Data({
    assets: [
      { type: "icon", uri: "embeded://assets/icon/images/main.png", name: "main", ext: "png" },
      { type: "background", uri: "embeded://assets/other/image/bg.png", name: "bg", ext: "png" },
      { type: "emotion", uri: "embeded://assets/emotion/image/happy.webp", name: "happy", ext: "webp" },
      { type: "x-risu-audio", uri: "embeded://assets/audio/theme.mp3", name: "theme", ext: "mp3" },
    ],
  });
  const charx = Buffer.from(
    zipSync({
      "card.json": json(v3(charxData)),
      ...Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new Uint8Array(v)])),
    }),
  );
  add("CharX with assets", "charx", v3(charxData), charx, files);

  for (let seed = 1; seed <= 12; seed++) {
    const data = generatedData(seed);
    const container: Container = (["json", "png", "charx"] as const)[seed % 3] ?? "json";
    const card =
      seed % 2
        ? v2(data)
        : v3({ ...data, nickname: `n${seed}`, creation_date: seed, modification_date: seed + 1 });
    const file =
      container === "json"
        ? json(card)
        : container === "png"
          ? await portraitPngFile(card, [seed % 2 ? "chara" : "ccv3"])
          : Buffer.from(zipSync({ "card.json": json(card) }));
    add(`generated ${seed} (${container})`, container, card, file, container === "charx" ? {} : undefined);
  }
  return out;
}
