import { randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parseCard } from "./parse.ts";
import { base64, insertChunks, plainPng, pngChunk, textChunk, v2Card, v3Card } from "./test-helpers.ts";
import { CardError } from "./types.ts";

/** The refusal a file gets: always a CardError, with its status and message. */
async function refusal(file: Buffer | Uint8Array, filename = "card") {
  const error = await parseCard(Buffer.from(file), filename).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CardError);
  const { status, message } = error as CardError;
  return { status, message };
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8");
const MB = 1024 * 1024;

describe("parseCard refuses files that are not cards", () => {
  it("empty file", async () => {
    expect(await refusal(Buffer.alloc(0))).toEqual({ status: 400, message: "The file is empty." });
  });

  it("random bytes", async () => {
    expect(await refusal(randomBytes(4096).fill(0, 0, 4))).toEqual({
      status: 415,
      message: "This file is not a character card: Hearth reads PNG, JSON and CharX (.charx) cards.",
    });
  });

  it("a file over 20 MB, before reading it", async () => {
    expect(await refusal(Buffer.alloc(20 * MB + 1, 0x7b))).toEqual({
      status: 413,
      message: "The file is larger than 20 MB.",
    });
  });

  it("a JPEG image", async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32)]);
    expect(await refusal(jpeg)).toEqual({
      status: 415,
      message: "This JPEG image holds no card: cards come as PNG, JSON or CharX.",
    });
  });

  it("JSON that is not a card, a lorebook, and a card without a name", async () => {
    expect(await refusal(json({ hello: "world" }))).toEqual({
      status: 400,
      message: "This JSON is not a character card: it has no name, description or first message.",
    });
    expect(await refusal(json({ spec: "lorebook_v3", data: { entries: [] } }))).toEqual({
      status: 400,
      message: "This is a lorebook, not a character card.",
    });
    expect(await refusal(json(v2Card({ name: "   " })))).toEqual({
      status: 400,
      message: "The card has no name.",
    });
    expect(await refusal(json({ spec: "chara_card_v3", data: "nope" }))).toEqual({
      status: 400,
      message: "This chara_card_v3 card has no data object.",
    });
  });

  it("invalid JSON", async () => {
    const { status, message } = await refusal(Buffer.from('{"name": "x", '));
    expect(status).toBe(400);
    expect(message).toMatch(/^The card data is not valid JSON: /);
  });

  it("deeply nested JSON", async () => {
    const deep = `{"name":"x","description":"y","extensions":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(await refusal(Buffer.from(deep))).toEqual({
      status: 400,
      message: "The card data is nested more than 64 levels deep.",
    });
  });

  it("a JSON card over the 8 MB card limit", async () => {
    const huge = json({ name: "x", description: "a".repeat(9 * MB) });
    expect(await refusal(huge)).toEqual({
      status: 413,
      message: "The card data is larger than 8 MB, which Hearth does not accept.",
    });
  });
});

describe("parseCard refuses broken PNG cards", () => {
  it("a PNG of a million empty chunks, without walking them all", async () => {
    const empty = pngChunk("teXt", Buffer.alloc(0));
    const png = insertChunks(
      await plainPng(),
      Array.from({ length: 1_000_000 }, () => empty),
    );
    expect(await refusal(png)).toEqual({
      status: 400,
      message: "The PNG has more than 20,000 chunks, which no real image needs.",
    });
  });

  it("a PNG with a wrong chunk name only", async () => {
    const png = insertChunks(await plainPng(), [textChunk("charaX", base64(v2Card()))]);
    expect(await refusal(png)).toEqual({
      status: 400,
      message: "This PNG holds no character card (it has no chara or ccv3 text chunk).",
    });
  });

  it("bad base64", async () => {
    const png = insertChunks(await plainPng(), [textChunk("chara", "eyJuYW1lIjo!!!")]);
    expect(await refusal(png)).toEqual({
      status: 400,
      message: "The chara chunk of this PNG is not valid base64.",
    });
  });

  it("invalid JSON inside the chunk", async () => {
    const png = insertChunks(await plainPng(), [
      textChunk("ccv3", Buffer.from("{not json").toString("base64")),
    ]);
    const { status, message } = await refusal(png);
    expect(status).toBe(400);
    expect(message).toMatch(/^The card data is not valid JSON: /);
  });

  it("a chunk whose CRC does not match", async () => {
    const chunk = textChunk("chara", base64(v2Card()));
    chunk.writeUInt8(chunk.readUInt8(chunk.length - 1) ^ 0xff, chunk.length - 1);
    expect(await refusal(insertChunks(await plainPng(), [chunk]))).toEqual({
      status: 400,
      message: "The PNG is damaged: its tEXt chunk fails its checksum (CRC).",
    });
  });

  it("a truncated PNG and a chunk length past the end", async () => {
    const png = insertChunks(await plainPng(), [textChunk("chara", base64(v2Card()))]);
    expect(await refusal(png.subarray(0, png.length - 12))).toEqual({
      status: 400,
      message: "The PNG is truncated: it has no IEND chunk.",
    });
    const lying = Buffer.from(png);
    lying.writeUInt32BE(0x7ffffff0, 33);
    expect(await refusal(lying)).toEqual({
      status: 400,
      message: "The PNG is truncated: its tEXt chunk runs past the end of the file.",
    });
  });

  it("a card chunk over the card limit, plain or as a zTXt bomb", async () => {
    const big = base64(v3Card({ description: "a".repeat(9 * MB) }));
    const tooLarge = {
      status: 413,
      message: "The card data is larger than 8 MB, which Hearth does not accept.",
    };
    expect(await refusal(insertChunks(await plainPng(), [textChunk("ccv3", big)]))).toEqual(tooLarge);
    // 200 MB of "A" deflates to ~200 KB; inflation stops at the limit.
    const bomb = pngChunk(
      "zTXt",
      Buffer.concat([Buffer.from("chara\0\0", "latin1"), deflateSync(Buffer.alloc(200 * MB, "A"))]),
    );
    expect(await refusal(insertChunks(await plainPng(), [bomb]))).toEqual(tooLarge);
  });

  it("a zTXt chunk that is not valid zlib data", async () => {
    const broken = pngChunk(
      "zTXt",
      Buffer.concat([Buffer.from("chara\0\0", "latin1"), Buffer.from("garbage")]),
    );
    expect(await refusal(insertChunks(await plainPng(), [broken]))).toEqual({
      status: 400,
      message: "The PNG is damaged: a compressed text chunk cannot be read.",
    });
  });
});

describe("parseCard refuses hostile CharX archives", () => {
  it("a zip without card.json", async () => {
    const zip = zipSync({ "readme.txt": Buffer.from("hi"), "sub/card.json": json(v3Card()) });
    expect(await refusal(zip)).toEqual({
      status: 400,
      message: "This CharX archive has no card.json at its root.",
    });
  });

  it("a zip bomb: card.json declared and inflating far beyond the limits", async () => {
    const zip = zipSync({ "card.json": new Uint8Array(100 * MB) }, { level: 1 });
    expect(zip.length).toBeLessThan(MB);
    expect(await refusal(zip)).toEqual({
      status: 413,
      message: "The CharX archive unpacks to more than 50 MB.",
    });
    const within = zipSync({ "card.json": new Uint8Array(20 * MB).fill(0x20) }, { level: 1 });
    expect(await refusal(within)).toEqual({ status: 413, message: "The CharX file card.json is too large." });
  });

  it("a zip bomb that lies about its size: inflation stops at the declared size", async () => {
    const zip = Buffer.from(zipSync({ "card.json": new Uint8Array(30 * MB).fill(0x20) }, { level: 1 }));
    // Rewrite the declared size (local header offset 22, central directory offset 24) to 100 bytes.
    zip.writeUInt32LE(100, 22);
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(100, central + 24);
    expect(await refusal(zip)).toEqual({
      status: 413,
      message: "The CharX file card.json unpacks to more than it declares.",
    });
  });

  it("too many entries", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 1001 }, (_, i) => [`f${i}.txt`, new Uint8Array(0)]),
    );
    expect(await refusal(zipSync(files))).toEqual({
      status: 413,
      message: "The CharX archive has more than 1000 files.",
    });
  });

  it("a damaged zip and a corrupted entry", async () => {
    expect(await refusal(Buffer.concat([Buffer.from("PK\u0003\u0004"), randomBytes(100)]))).toEqual({
      status: 400,
      message: "The CharX archive is damaged: its table of contents is missing.",
    });
    const zip = Buffer.from(zipSync({ "card.json": json(v3Card()) }, { level: 0 }));
    zip.writeUInt8(zip.readUInt8(40) ^ 0xff, 40); // a byte of the stored card.json
    expect(await refusal(zip)).toEqual({
      status: 400,
      message: "The CharX archive is damaged: card.json fails its checksum (CRC).",
    });
  });

  it("ignores path traversal entries, even when the icon points at one", async () => {
    const card = v3Card({
      assets: [{ type: "icon", uri: "embeded://../evil.png", name: "main", ext: "png" }],
    });
    const zip = zipSync({
      "card.json": json(card),
      "../evil.png": await plainPng(),
      "/etc/passwd": Buffer.from("root"),
      "C:/win.ini": Buffer.from("x"),
    });
    const { avatar, report } = await parseCard(Buffer.from(zip), "x.charx");
    expect(avatar).toBeNull();
    expect(report.ignored).toContain(
      "archive entries with unsafe paths: ../evil.png, /etc/passwd, C:/win.ini",
    );
    expect(report.warnings).toContain(
      "The main icon ../evil.png is not in the archive, so no avatar was imported.",
    );
  });

  it("a .charx file that is not a zip", async () => {
    expect(await refusal(Buffer.from("hello"), "mira.charx")).toEqual({
      status: 415,
      message: "This .charx file is not a zip archive.",
    });
  });
});
