export type ImageType = "png" | "jpeg" | "webp" | "gif" | "avif";

/** The image type from the file's first bytes; what a client or a file name claims can lie. */
export function sniffImageType(data: Buffer): ImageType | null {
  const ascii = (from: number, to: number) => data.toString("latin1", from, to);
  if (data.length < 12) return null;
  if (data[0] === 0x89 && ascii(1, 8) === "PNG\r\n\x1a\n") return "png";
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "jpeg";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return "gif";
  if (ascii(4, 8) === "ftyp" && ["avif", "avis"].includes(ascii(8, 12))) return "avif";
  return null;
}
