import { characterCreate, type ImportReport } from "@hearth/contract";
import { HttpError } from "../../http/errors.ts";
import { parse } from "../../http/validate.ts";
import type { Viewer } from "../accounts/index.ts";
import { MAX_IMAGE_BYTES } from "./cards/limits.ts";
import { artHash, writeCardPointer } from "./cards/source.ts";
import { CardError, type ParseCard } from "./cards/types.ts";
import type { CharacterRow } from "./schema.ts";
import type { CharacterService } from "./service.ts";

/** A card that cannot be read: its status (400, 413, 415) with the matching contract code. */
export function cardHttpError(error: CardError): HttpError {
  const code =
    error.status === 413
      ? "payloadTooLarge"
      : error.status === 415
        ? "unsupportedMediaType"
        : "invalidRequest";
  return new HttpError(error.status, code, error.message);
}

/**
 * Creates a character from a card file, for the import route and `hearth import`. The bot starts
 * private (its owner publishes it, which goes through review); the card's picture goes through
 * the same avatar checks as an upload, and a picture that fails them becomes a warning, not a
 * failed import.
 */
export async function importCard(
  deps: { service: CharacterService; parseCard: ParseCard },
  creator: Viewer,
  upload: { data: Buffer; filename: string },
): Promise<{ row: CharacterRow; report: ImportReport }> {
  let parsed: Awaited<ReturnType<ParseCard>>;
  try {
    parsed = await deps.parseCard(upload.data, upload.filename);
  } catch (error) {
    throw error instanceof CardError ? cardHttpError(error) : error;
  }
  const fields = parse(characterCreate, { ...parsed.fields, visibility: "private" });
  // The card as written, so an export gives back what Hearth does not change (cards/source.ts).
  const { service } = deps;
  const cardSource = writeCardPointer({
    version: parsed.source.version,
    dataKey: await service.storeCardFile(Buffer.from(JSON.stringify(parsed.source.data), "utf8"), "json"),
    ...(parsed.archive ? { archiveKey: await service.storeCardFile(parsed.archive, "charx") } : {}),
    ...(parsed.art ? { artSha256: artHash(parsed.art) } : {}),
  });
  let row = await deps.service.create(creator.id, fields, {
    characterBook: parsed.characterBook,
    extensions: parsed.extensions,
    cardSource,
  });
  const report: ImportReport = { ...parsed.report, warnings: [...parsed.report.warnings] };
  if (parsed.avatar) {
    try {
      row = await deps.service.setAvatar(
        creator,
        row,
        parsed.avatar.data,
        MAX_IMAGE_BYTES,
        parsed.art ?? parsed.avatar.data,
      );
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      // The parser listed the picture as taken; it was refused, so it is not.
      report.imported = report.imported.filter((item) => !item.startsWith("avatar"));
      report.warnings.push(`The card's picture was not used as the avatar: ${error.message}`);
    }
  }
  return { row, report };
}
