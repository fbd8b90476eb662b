import type { FastifyRequest } from "fastify";
import { HttpError } from "./errors.ts";

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
  if (part?.fieldname !== "file") throw new HttpError(400, "invalidRequest", `No file was sent. ${hint}`);
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch (error) {
    throw uploadError(error, maxBytes);
  }
  // The size limit does not always throw: the file may arrive cut at the limit, marked
  // truncated. It is too large, never "damaged".
  if (part.file.truncated || data.length > maxBytes) throw tooLarge(maxBytes);
  return { data, filename: part.filename };
}

const tooLarge = (maxBytes: number) =>
  new HttpError(413, "payloadTooLarge", `The file is larger than ${maxBytes / 1024 / 1024} MB.`);

function uploadError(error: unknown, maxBytes: number): HttpError {
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return tooLarge(maxBytes);
  // Malformed multipart bodies (cut off, bad boundary) are the client's mistake.
  return new HttpError(400, "invalidRequest", "The upload could not be read. Please try again.");
}
