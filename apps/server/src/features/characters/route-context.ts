import type { PromptCost, PromptCostRequest } from "@hearth/contract";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { parse } from "../../http/validate.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "../accounts/auth.ts";
import { getViewer } from "../accounts/viewer.ts";
import type { ExportCard, ParseCard } from "./cards/types.ts";
import { assertNotRestricted, invalidAccess, type MaybeViewer } from "./policy.ts";
import type { FoundCharacter } from "./queries.ts";
import type { CharacterService } from "./service.ts";

/** What the characters routes need, handed over by the composition root (app.ts). */
export interface CharactersRouteDeps {
  config: Pick<Config, "edition">;
  db: Db;
  auth: Auth;
  storage: FileStorage;
  service: CharacterService;
  /** The card file modules (cards/parse.ts, cards/export.ts). */
  cards: { parse: ParseCard; export: ExportCard };
  /** What a definition costs on the default model (generation's prompt budget). */
  promptCost: (fields: Required<PromptCostRequest>) => Promise<PromptCost>;
}

const idParams = z.object({ id: z.string().max(64) });

/** The viewer (or null when signed out) and the character the path names, or 404 invalidAccess. */
export async function loadCharacter(
  deps: CharactersRouteDeps,
  req: FastifyRequest,
): Promise<{ viewer: MaybeViewer; found: FoundCharacter }> {
  const { id } = parse(idParams, req.params);
  const viewer = await getViewer(deps.auth, req);
  const found = await deps.service.find(id, viewer?.id ?? null);
  if (!found) {
    assertNotRestricted(viewer);
    throw invalidAccess();
  }
  return { viewer, found };
}

/** The family-safe edition never lists NSFW bots, whatever the client asks. */
export function allowNsfw(config: Pick<Config, "edition">, requested: boolean): boolean {
  return requested && config.edition !== "family";
}

/** Reads the one file of a multipart request (field `file`), refusing it past `maxBytes`. */
export async function readUpload(
  req: FastifyRequest,
  maxBytes: number,
): Promise<{ data: Buffer; filename: string }> {
  const hint = "Send the file as multipart/form-data in a field named file.";
  if (!req.isMultipart()) throw new HttpError(415, "unsupportedMediaType", hint);
  let part: Awaited<ReturnType<FastifyRequest["file"]>>;
  try {
    part = await req.file({ limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 11 } });
  } catch (error) {
    throw uploadError(error, maxBytes);
  }
  if (!part || part.fieldname !== "file")
    throw new HttpError(400, "invalidRequest", `No file was sent. ${hint}`);
  try {
    return { data: await part.toBuffer(), filename: part.filename };
  } catch (error) {
    throw uploadError(error, maxBytes);
  }
}

function uploadError(error: unknown, maxBytes: number): HttpError {
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") {
    return new HttpError(413, "payloadTooLarge", `The file is larger than ${maxBytes / 1024 / 1024} MB.`);
  }
  // Malformed multipart bodies (cut off, bad boundary) are the client's mistake.
  return new HttpError(400, "invalidRequest", "The upload could not be read. Please try again.");
}
