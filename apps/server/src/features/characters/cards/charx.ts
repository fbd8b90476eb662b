import type { ImportReport } from "@hearth/contract";
import { zipSync } from "fflate";
import { sniffImageType } from "../../../lib/image-type.ts";
import { isRecord } from "./card-json.ts";
import { listNames } from "./extensions.ts";
import { MAX_CARD_JSON_BYTES, MAX_IMAGE_BYTES } from "./limits.ts";
import { CardError, type CardImage } from "./types.ts";
import { readZip, type ZipArchive } from "./zip.ts";

/** CharX: a zip with the V3 card in card.json and its assets referenced as embeded://path. */

export const CHARX_ICON_PATH = "assets/icon/images/main.png";

export interface CharxContents {
  cardJson: Buffer;
  archive: ZipArchive;
}

export function readCharx(file: Buffer): CharxContents {
  const archive = readZip(file);
  const entry = archive.entries.get("card.json");
  if (!entry) throw new CardError("This CharX archive has no card.json at its root.");
  return { cardJson: archive.read(entry, MAX_CARD_JSON_BYTES), archive };
}

/** The zip path an asset URI points to: `embeded://` (the spec's spelling), `embedded://`, `__asset:`. */
function embeddedPath(uri: string): string | null {
  const match = /^(?:embeded:\/\/|embedded:\/\/|__asset:)(.+)$/.exec(uri);
  return match?.[1] ?? null;
}

function assetsOf(data: Record<string, unknown>): Array<Record<string, unknown>> {
  return Array.isArray(data.assets) ? data.assets.filter(isRecord) : [];
}

/**
 * The avatar: the icon named "main", else the first icon (V3 spec, `assets`). Other assets
 * (backgrounds, emotions, sounds...) are listed as ignored: Hearth keeps one picture.
 */
export function charxAvatar(
  data: Record<string, unknown>,
  charx: CharxContents,
  report: ImportReport,
): { avatar: CardImage; path: string } | null {
  const { archive } = charx;
  if (archive.unsafeNames.length > 0) {
    report.ignored.push(`archive entries with unsafe paths: ${listNames(archive.unsafeNames)}`);
  }
  const assets = assetsOf(data);
  const icons = assets.filter((a) => a.type === "icon");
  const icon = icons.find((a) => a.name === "main") ?? icons[0];
  const others = assets.filter((a) => a !== icon);
  if (others.length > 0) {
    report.ignored.push(
      `${others.length} assets besides the main icon (${listNames(
        others.map((a) => `${String(a.type)}: ${String(a.name)}`),
        10,
      )}): not used, kept for export as CharX`,
    );
  }
  if (!icon) {
    report.warnings.push("The card lists no icon asset, so no avatar was imported.");
    return null;
  }
  const uri = typeof icon.uri === "string" ? icon.uri : "";
  const path = embeddedPath(uri);
  if (path === null) {
    report.ignored.push(`main icon "${uri.slice(0, 80)}": only images inside the archive are imported`);
    return null;
  }
  const entry = archive.entries.get(path);
  if (!entry) {
    report.warnings.push(
      `The main icon ${path.slice(0, 80)} is not in the archive, so no avatar was imported.`,
    );
    return null;
  }
  const bytes = archive.read(entry, MAX_IMAGE_BYTES);
  const type = sniffImageType(bytes);
  if (!type) {
    report.ignored.push(`main icon ${path.slice(0, 80)}: not a PNG, JPEG, WebP, GIF or AVIF image`);
    return null;
  }
  report.imported.push(`avatar (${path.slice(0, 80)})`);
  return { avatar: { data: bytes, mimeType: `image/${type}` }, path };
}

/**
 * A CharX with card.json, the other files given (an imported archive's assets) and, when there
 * is one, the picture as a PNG at CHARX_ICON_PATH.
 */
export function writeCharx(
  card: unknown,
  iconPng: Buffer | null,
  others: Record<string, Uint8Array> = {},
): Buffer {
  const files: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = {
    "card.json": new TextEncoder().encode(JSON.stringify(card)),
  };
  // Images and audio are already compressed: store them rather than deflate them again.
  for (const [path, data] of Object.entries(others))
    if (path !== "card.json") files[path] = [data, { level: 0 }];
  if (iconPng) files[CHARX_ICON_PATH] = [new Uint8Array(iconPng), { level: 0 }];
  const zipped = zipSync(files, { level: 6 });
  return Buffer.from(zipped.buffer, zipped.byteOffset, zipped.byteLength);
}
