import type { ImportReport } from "@hearth/contract";
import { sniffImageType } from "../../../lib/image-type.ts";
import { decodeBase64Card, isRecord, parseCardJson, type RawCard } from "./card-json.ts";
import { cardToHearth } from "./card-to-hearth.ts";
import { charxAvatar, readCharx } from "./charx.ts";
import { listNames } from "./extensions.ts";
import { MAX_FILE_BYTES } from "./limits.ts";
import { isPng, readPngCardText, withCardTextChunks } from "./png.ts";
import { CardError, type ParseCard, type ParsedCard } from "./types.ts";
import { isZip } from "./zip.ts";

/**
 * Reads a Tavern character card from a PNG (tEXt/zTXt/iTXt `ccv3` or `chara`), a JSON file or
 * a CharX archive. The container is recognised by its bytes, never by the file name.
 */
export const parseCard: ParseCard = async (file, filename) => {
  if (file.length === 0) throw new CardError("The file is empty.");
  if (file.length > MAX_FILE_BYTES) {
    throw new CardError(`The file is larger than ${MAX_FILE_BYTES / 2 ** 20} MB.`, 413);
  }
  try {
    if (isPng(file)) return parsePngCard(file);
    if (isZip(file)) return parseCharxCard(file);
    if (looksLikeJson(file)) return parseJsonCard(file);
  } catch (error) {
    if (error instanceof CardError) throw error;
    // A bug or an input no check foresaw: still a clear refusal, never a server error.
    throw new CardError("This card file could not be read.");
  }
  throw notACard(file, filename);
};

function notACard(file: Buffer, filename: string): CardError {
  const image = sniffImageType(file);
  if (image) {
    return new CardError(
      `This ${image.toUpperCase()} image holds no card: cards come as PNG, JSON or CharX.`,
      415,
    );
  }
  if (/\.charx$/i.test(filename)) return new CardError("This .charx file is not a zip archive.", 415);
  return new CardError(
    "This file is not a character card: Hearth reads PNG, JSON and CharX (.charx) cards.",
    415,
  );
}

/** An object after an optional byte-order mark and white space. */
function looksLikeJson(file: Buffer): boolean {
  let at = file[0] === 0xef && file[1] === 0xbb && file[2] === 0xbf ? 3 : 0;
  while (at < file.length && [0x20, 0x09, 0x0a, 0x0d].includes(file[at] ?? 0)) at++;
  return file[at] === 0x7b;
}

function parseJsonCard(file: Buffer): ParsedCard {
  const raw = parseCardJson(file);
  const format = raw.version === 3 ? "json_v3" : raw.version === 2 ? "json_v2" : "json_v1";
  const parsed = cardToHearth(raw, format);
  noteAssetsNotImported(raw, parsed.report);
  return { ...parsed, avatar: null, art: null, archive: null };
}

function parsePngCard(file: Buffer): ParsedCard {
  const { texts, otherKeywords } = readPngCardText(file);
  if (texts.ccv3 === undefined && texts.chara === undefined) {
    throw new CardError("This PNG holds no character card (it has no chara or ccv3 text chunk).");
  }
  const warnings: string[] = [];
  let raw: RawCard;
  if (texts.ccv3 !== undefined) {
    try {
      raw = parseCardJson(decodeBase64Card(texts.ccv3, "ccv3"));
    } catch (error) {
      // The V3 chunk wins when both exist, but a broken one should not hide a good V2 copy.
      if (!(error instanceof CardError) || texts.chara === undefined || error.status === 413) throw error;
      warnings.push(
        `The ccv3 chunk could not be read (${error.message}); the chara (V2) chunk was used instead.`,
      );
      raw = parseCardJson(decodeBase64Card(texts.chara, "chara"));
    }
  } else {
    raw = parseCardJson(decodeBase64Card(texts.chara ?? "", "chara"));
  }
  raw.warnings.unshift(...warnings);
  const parsed = cardToHearth(raw, raw.version === 3 ? "png_v3" : raw.version === 2 ? "png_v2" : "png_v1");
  const { report } = parsed;

  const pngAssets = otherKeywords.filter((k) => k.startsWith("chara-ext-asset_"));
  if (pngAssets.length > 0) {
    report.ignored.push(
      `${pngAssets.length} PNG-embedded assets (chara-ext-asset_ chunks): not used, kept in the card's picture for export`,
    );
  }
  const others = assetList(raw).filter((a) => !(a.type === "icon" && a.uri === "ccdefault:"));
  if (others.length > 0)
    report.ignored.push(
      `${others.length} assets besides the card image itself: not used, listed again on export`,
    );
  report.imported.push("avatar (the card image)");
  // The art keeps every byte of the picture (and its PNG-embedded assets), not the card text.
  const art = withCardTextChunks(file, []);
  return { ...parsed, avatar: { data: file, mimeType: "image/png" }, art, archive: null };
}

function parseCharxCard(file: Buffer): ParsedCard {
  const charx = readCharx(file);
  const raw = parseCardJson(charx.cardJson);
  const parsed = cardToHearth(raw, "charx");
  const icon = charxAvatar(raw.data, charx, parsed.report);
  const otherFiles = [...charx.archive.entries.keys()].filter(
    (name) => name !== "card.json" && name !== icon?.path && !name.endsWith("/"),
  );
  if (otherFiles.length > 0) {
    parsed.report.ignored.push(
      `archive files not used (kept for export as CharX): ${listNames(otherFiles, 10)}`,
    );
  }
  return { ...parsed, avatar: icon?.avatar ?? null, art: icon?.avatar.data ?? null, archive: file };
}

function assetList(raw: RawCard): Array<Record<string, unknown>> {
  return Array.isArray(raw.data.assets) ? raw.data.assets.filter(isRecord) : [];
}

/** A JSON card has nowhere to hold pictures; remote or data: assets are not fetched. */
function noteAssetsNotImported(raw: RawCard, report: ImportReport): void {
  const assets = assetList(raw).filter((a) => a.uri !== "ccdefault:");
  if (assets.length > 0) report.ignored.push(`${assets.length} assets (a JSON card carries no images)`);
}
