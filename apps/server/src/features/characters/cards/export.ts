import { CHARX_ICON_PATH, writeCharx } from "./charx.ts";
import { type CardAsset, DEFAULT_ICON, v2Card, v3Card } from "./hearth-to-card.ts";
import { avatarAsPng } from "./image.ts";
import { withCardTextChunks } from "./png.ts";
import type { ExportCard, ExportedCard } from "./types.ts";

/**
 * Writes a Hearth character as a Tavern card: V3 JSON, a PNG with `ccv3` (V3) and `chara` (V2)
 * chunks, or a CharX archive with the avatar as its main icon.
 */
export const exportCard: ExportCard = async (character, format): Promise<ExportedCard> => {
  const { name } = character.fields;
  const base = safeFileName(name);
  if (format === "json") {
    const card = v3Card(character, [DEFAULT_ICON]);
    return {
      body: Buffer.from(JSON.stringify(card, null, 2), "utf8"),
      contentType: "application/json; charset=utf-8",
      filename: `${base}.json`,
    };
  }
  if (format === "png") {
    const png = await avatarAsPng(character.avatar, name);
    const body = withCardTextChunks(png, [
      { keyword: "chara", text: base64Json(v2Card(character)) },
      { keyword: "ccv3", text: base64Json(v3Card(character, [DEFAULT_ICON])) },
    ]);
    return { body, contentType: "image/png", filename: `${base}.png` };
  }
  // CharX: without an avatar there is no icon asset (and no made-up placeholder picture).
  const icon = character.avatar ? await avatarAsPng(character.avatar, name) : null;
  const assets: CardAsset[] = icon
    ? [{ type: "icon", uri: `embeded://${CHARX_ICON_PATH}`, name: "main", ext: "png" }]
    : [];
  return {
    body: writeCharx(v3Card(character, assets), icon),
    contentType: "application/zip",
    filename: `${base}.charx`,
  };
};

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
