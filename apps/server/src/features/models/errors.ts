export type DownloadErrorKind =
  | "offline"
  | "interrupted"
  | "http"
  | "size"
  | "checksum"
  | "not_gguf"
  | "aborted";

/** An expected download failure; the message tells a person what happened and what to do. */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly kind: DownloadErrorKind,
  ) {
    super(message);
    this.name = "DownloadError";
  }
}
