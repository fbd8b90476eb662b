// Minimal GGUF v3 writer: typed metadata (KVs, including arrays) and F32 tensors.
// Layout: header, KVs, tensor infos, padding, tensor data (each tensor aligned).
// Spec: ggml's docs/gguf.md. Only what Hearth's tiny model needs is supported.
import { writeFileSync } from "node:fs";

/** GGUF value type ids, as stored in the file. */
export const GgufType = {
  u8: 0,
  i8: 1,
  u16: 2,
  i16: 3,
  u32: 4,
  i32: 5,
  f32: 6,
  bool: 7,
  string: 8,
  array: 9,
  u64: 10,
  i64: 11,
  f64: 12,
} as const;

export type GgufScalar =
  | { type: "u8" | "i8" | "u16" | "i16" | "u32" | "i32" | "f32" | "f64"; value: number }
  | { type: "u64" | "i64"; value: bigint }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string };

export type GgufArray =
  | { type: "array"; itemType: "u8" | "i8" | "u16" | "i16" | "u32" | "i32" | "f32" | "f64"; values: number[] }
  | { type: "array"; itemType: "u64" | "i64"; values: bigint[] }
  | { type: "array"; itemType: "bool"; values: boolean[] }
  | { type: "array"; itemType: "string"; values: string[] };

export type GgufValue = GgufScalar | GgufArray;

/** Shorthands so callers write `kv.u32(3)` instead of object literals. */
export const kv = {
  u32: (value: number): GgufValue => ({ type: "u32", value }),
  i32: (value: number): GgufValue => ({ type: "i32", value }),
  f32: (value: number): GgufValue => ({ type: "f32", value }),
  bool: (value: boolean): GgufValue => ({ type: "bool", value }),
  str: (value: string): GgufValue => ({ type: "string", value }),
  strings: (values: string[]): GgufValue => ({ type: "array", itemType: "string", values }),
  f32s: (values: number[]): GgufValue => ({ type: "array", itemType: "f32", values }),
  i32s: (values: number[]): GgufValue => ({ type: "array", itemType: "i32", values }),
};

export interface GgufTensor {
  name: string;
  /** ggml order: dims[0] (ne0) is the contiguous one, so a row-major [out, in] matrix is [in, out]. */
  dims: number[];
  data: Float32Array;
}

export interface GgufContent {
  kv: Record<string, GgufValue>;
  tensors: GgufTensor[];
  /** Tensor data alignment; GGUF's default is 32 (written as general.alignment only if different). */
  alignment?: number;
}

const GGML_TYPE_F32 = 0;

/** Growable little-endian byte buffer. */
class ByteWriter {
  private buf = Buffer.alloc(1 << 16);
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  u8(v: number): void {
    this.reserve(1);
    this.length = this.buf.writeUInt8(v, this.length);
  }
  i8(v: number): void {
    this.reserve(1);
    this.length = this.buf.writeInt8(v, this.length);
  }
  u16(v: number): void {
    this.reserve(2);
    this.length = this.buf.writeUInt16LE(v, this.length);
  }
  i16(v: number): void {
    this.reserve(2);
    this.length = this.buf.writeInt16LE(v, this.length);
  }
  u32(v: number): void {
    this.reserve(4);
    this.length = this.buf.writeUInt32LE(v, this.length);
  }
  i32(v: number): void {
    this.reserve(4);
    this.length = this.buf.writeInt32LE(v, this.length);
  }
  f32(v: number): void {
    this.reserve(4);
    this.length = this.buf.writeFloatLE(v, this.length);
  }
  f64(v: number): void {
    this.reserve(8);
    this.length = this.buf.writeDoubleLE(v, this.length);
  }
  u64(v: bigint | number): void {
    this.reserve(8);
    this.length = this.buf.writeBigUInt64LE(BigInt(v), this.length);
  }
  i64(v: bigint): void {
    this.reserve(8);
    this.length = this.buf.writeBigInt64LE(v, this.length);
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  /** GGUF string: u64 byte length, then UTF-8 bytes (no terminator). */
  string(s: string): void {
    const b = Buffer.from(s, "utf8");
    this.u64(b.length);
    this.bytes(b);
  }
  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    this.bytes(new Uint8Array(pad));
  }
  toBuffer(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

type ScalarType = Exclude<keyof typeof GgufType, "array">;

function writeScalar(w: ByteWriter, type: ScalarType, value: number | bigint | boolean | string): void {
  if (type === "string") w.string(value as string);
  else if (type === "bool") w.u8(value ? 1 : 0);
  else if (type === "u64") w.u64(value as bigint);
  else if (type === "i64") w.i64(value as bigint);
  else w[type](value as number);
}

function writeValue(w: ByteWriter, value: GgufValue): void {
  w.u32(GgufType[value.type]);
  if (value.type !== "array") {
    writeScalar(w, value.type, value.value);
    return;
  }
  w.u32(GgufType[value.itemType]);
  w.u64(value.values.length);
  for (const item of value.values) writeScalar(w, value.itemType, item);
}

/** Serialises a GGUF v3 file into memory. */
export function encodeGguf(content: GgufContent): Buffer {
  const alignment = content.alignment ?? 32;
  const kvEntries = Object.entries(content.kv);
  if (alignment !== 32) kvEntries.push(["general.alignment", kv.u32(alignment)]);

  const w = new ByteWriter();
  w.bytes(Buffer.from("GGUF", "ascii"));
  w.u32(3);
  w.u64(content.tensors.length);
  w.u64(kvEntries.length);
  for (const [key, value] of kvEntries) {
    w.string(key);
    writeValue(w, value);
  }

  // Tensor infos; offsets are relative to the start of the (aligned) data section.
  let offset = 0;
  const offsets: number[] = [];
  for (const t of content.tensors) {
    const elements = t.dims.reduce((a, b) => a * b, 1);
    if (elements !== t.data.length) {
      throw new Error(
        `tensor ${t.name}: dims ${t.dims.join("x")} need ${elements} values, got ${t.data.length}`,
      );
    }
    offset = Math.ceil(offset / alignment) * alignment;
    offsets.push(offset);
    w.string(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(GGML_TYPE_F32);
    w.u64(offset);
    offset += t.data.byteLength;
  }

  w.padTo(alignment);
  const dataStart = w.length;
  content.tensors.forEach((t, i) => {
    w.bytes(new Uint8Array(dataStart + (offsets[i] ?? 0) - w.length)); // alignment padding
    // Float32Array is host-endian; every platform node-llama-cpp ships for is little-endian.
    w.bytes(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  });
  return w.toBuffer();
}

/** Writes a GGUF v3 file with the given metadata and F32 tensors. */
export function writeGguf(path: string, content: GgufContent): void {
  writeFileSync(path, encodeGguf(content));
}
