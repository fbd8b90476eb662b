import { isRecord } from "./card-json.ts";
import { CHARX_ICON_PATH, writeCharx } from "./charx.ts";
import { type CardAsset, DEFAULT_ICON, jsonCard, v2Card, v3Card } from "./hearth-to-card.ts";
import { cardPicture } from "./image.ts";
import { MAX_IMAGE_BYTES } from "./limits.ts";
import { withCardTextChunks } from "./png.ts";
import { artHash } from "./source.ts";
import type { ExportableCharacter, ExportCard, ExportedCard } from "./types.ts";
import { readZip } from "./zip.ts";

/**
 * Writes a Hearth character as a Tavern card: JSON (in the imported card's version, else V3), a
 * PNG with `ccv3` (V3) and `chara` (V2) chunks, or a CharX archive with the picture as its main
 * icon. An imported card comes back as it was, but for what was changed in Hearth (fidelity.ts):
 * its art byte for byte, and for CharX every file of the original archive.
 */
export const exportCard: ExportCard = async (character, format): Promise<ExportedCard> => {
  const { name } = character.fields;
  const base = safeFileName(name);
  const artUnchanged = isArtUnchanged(character);
  if (format === "json") {
    return {
      body: Buffer.from(JSON.stringify(jsonCard(character, artUnchanged), null, 2), "utf8"),
      contentType: "application/json; charset=utf-8",
      filename: `${base}.json`,
    };
  }
  if (format === "png") {
    const png = await cardPicture(character, name);
    const body = withCardTextChunks(png, [
      { keyword: "chara", text: base64Json(v2Card(character, artUnchanged)) },
      { keyword: "ccv3", text: base64Json(v3Card(character, [DEFAULT_ICON], artUnchanged)) },
    ]);
    return { body, contentType: "image/png", filename: `${base}.png` };
  }
  return {
    body: await charx(character, artUnchanged),
    contentType: "application/zip",
    filename: `${base}.charx`,
  };
};

/**
 * Whether the picture is still the imported card's (or there is none to replace it): the card's
 * own assets list is then written back as it was.
 */
function isArtUnchanged(character: ExportableCharacter): boolean {
  const { source, art } = character;
  if (!source || !art) return true;
  return artHash(art.data) === source.artSha256;
}

const MAIN_ICON: CardAsset = { type: "icon", uri: `embeded://${CHARX_ICON_PATH}`, name: "main", ext: "png" };

async function charx(character: ExportableCharacter, artUnchanged: boolean): Promise<Buffer> {
  const files = originalArchiveFiles(character.source?.archive ?? null);
  if (files && artUnchanged) return writeCharx(v3Card(character, [], true), null, files);
  const icon = await cardPicture(character, character.fields.name);
  // The original archive's other assets stay listed; the main icon is the new picture.
  const original = character.source?.data.assets;
  const others =
    files && Array.isArray(original)
      ? original.filter((a) => !(isRecord(a) && a.type === "icon" && a.name === "main"))
      : [];
  return writeCharx(v3Card(character, [...(others as CardAsset[]), MAIN_ICON]), icon, files ?? {});
}

/** Every file of the imported CharX but card.json, or null when there is none (or it cannot be read). */
function originalArchiveFiles(archive: Buffer | null): Record<string, Uint8Array> | null {
  if (!archive) return null;
  try {
    const zip = readZip(archive);
    const files: Record<string, Uint8Array> = {};
    for (const [path, entry] of zip.entries) {
      if (path === "card.json" || path.endsWith("/")) continue;
      files[path] = new Uint8Array(zip.read(entry, MAX_IMAGE_BYTES));
    }
    return files;
  } catch {
    return null;
  }
}

function base64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

/**
 * A file name from the character's name that is safe on every OS and in Content-Disposition:
 * no path separators, control or reserved characters, no leading/trailing dots or spaces.
 */
export function safeFileName(name: string): string {
  const replaced = name
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}<>:"/\\|?*]+/gu, " ")
    .replace(/\s+/g, " ");
  // At most 80 code points (never half a surrogate pair), then trim dots and spaces again.
  const cleaned = Array.from(replaced.replace(/^[\s.]+/, ""))
    .slice(0, 80)
    .join("")
    .replace(/[\s.]+$/, "");
  if (cleaned === "") return "character";
  return WINDOWS_RESERVED.test(cleaned) ? `${cleaned}_` : cleaned;
}
