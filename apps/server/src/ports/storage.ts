/**
 * Where uploaded and generated files (avatars, later chat images and audio) live. Embedded
 * installs write under `$HEARTH_DATA_DIR/files`; scale-out installs use S3-compatible storage
 * so every process sees the same files.
 *
 * Keys are relative paths such as `avatars/<id>/<random>-512.webp`: lower-case letters, digits,
 * `-`, `_`, `.` and `/`, never `..`. A key names immutable content: replacing a file means a new key.
 */
export interface StoredFile {
  body: Buffer;
  contentType: string;
}

export interface FileStorage {
  readonly driver: "local" | "s3";
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The file, or null when there is none under that key. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes the file; removing a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** The address a browser fetches the file from (under /api/files, or the bucket's public URL). */
  url(key: string): string;
  /** Every stored key, in no particular order (backups walk them). */
  list(): AsyncIterable<string>;
  ping(): Promise<void>;
}

/** URL path under which the API serves stored files (GET /api/files/<key>). */
export const FILES_ROUTE_PREFIX = "/api/files/";

const KEY = /^[a-z0-9_-][a-z0-9_.-]*(\/[a-z0-9_-][a-z0-9_.-]*)*$/;

/** True for a well-formed key; rejects traversal (`..`), absolute paths and odd characters. */
export function isValidKey(key: string): boolean {
  return key.length <= 300 && KEY.test(key) && !key.split("/").includes("..");
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

/** Content types by extension, for stores that do not keep the type beside the bytes. */
export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1);
  return CONTENT_TYPES[ext] ?? "application/octet-stream";
}

const CONTENT_TYPES: Record<string, string> = {
  webp: "image/webp",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  json: "application/json",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
};
