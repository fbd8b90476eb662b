import { createHash } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";

/**
 * The stand-in image servers' pictures: a real PNG, one colour derived from the prompt, with the
 * prompt in a `tEXt` chunk named `parameters` (as Automatic1111 writes it), so the moderation
 * stand-in can "classify" a picture by what it was made from.
 */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export function standinPng(prompt: string, width = 16, height = 16): Buffer {
  const [r = 0, g = 0, b = 0] = createHash("sha256").update(prompt).digest();
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat()),
  ]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("tEXt", Buffer.from(`parameters\0${prompt}`, "latin1")),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The `parameters` text of a stand-in PNG, or null. */
export function pngParameters(png: Buffer): string | null {
  let offset = 8;
  while (offset + 8 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("ascii", offset + 4, offset + 8);
    if (type === "tEXt") {
      const text = png.toString("latin1", offset + 8, offset + 8 + length);
      const [key, value] = [text.slice(0, text.indexOf("\0")), text.slice(text.indexOf("\0") + 1)];
      if (key === "parameters") return value;
    }
    offset += 12 + length;
  }
  return null;
}

/** The width and height in a PNG's IHDR. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
