import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { afterAll, describe, expect, it } from "vitest";
import { encodeGguf, GgufType, kv, writeGguf } from "./gguf-writer.ts";

/** Just enough of a GGUF reader to check what the writer produced, independently of it. */
function readGguf(buf: Buffer) {
  let pos = 0;
  /** Reads `size` bytes at the cursor with `read` and moves past them. */
  const take = <T>(size: number, read: (at: number) => T): T => {
    const at = pos;
    pos += size;
    return read(at);
  };
  const u32 = () => take(4, (at) => buf.readUInt32LE(at));
  const u64 = () => take(8, (at) => Number(buf.readBigUInt64LE(at)));
  const str = () => {
    const n = u64();
    pos += n;
    return buf.toString("utf8", pos - n, pos);
  };
  const scalar = (type: number): unknown => {
    if (type === GgufType.u32) return u32();
    if (type === GgufType.i32) return take(4, (at) => buf.readInt32LE(at));
    if (type === GgufType.f32) return take(4, (at) => buf.readFloatLE(at));
    if (type === GgufType.bool) return take(1, (at) => buf[at] === 1);
    if (type === GgufType.string) return str();
    throw new Error(`type ${type} not handled by the test reader`);
  };
  const magic = buf.toString("ascii", 0, 4);
  pos = 4;
  const version = u32();
  const tensorCount = u64();
  const kvCount = u64();
  const kvs = new Map<string, unknown>();
  for (let i = 0; i < kvCount; i++) {
    const key = str();
    const type = u32();
    if (type !== GgufType.array) kvs.set(key, scalar(type));
    else {
      const itemType = u32();
      const n = u64();
      kvs.set(
        key,
        Array.from({ length: n }, () => scalar(itemType)),
      );
    }
  }
  const tensors = Array.from({ length: tensorCount }, () => {
    const name = str();
    const dims = Array.from({ length: u32() }, () => u64());
    return { name, dims, type: u32(), offset: u64() };
  });
  const dataStart = Math.ceil(pos / 32) * 32;
  return { magic, version, tensorCount, kvCount, kvs, tensors, dataStart };
}

describe("gguf-writer", () => {
  const dir = mkdtempSync(join(tmpdir(), "gguf-writer-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const content = {
    kv: {
      "general.architecture": kv.str("llama"),
      "general.name": kv.str("Tiny ▁ test"),
      "llama.block_count": kv.u32(1),
      "llama.attention.layer_norm_rms_epsilon": kv.f32(1e-5),
      "tokenizer.ggml.add_bos_token": kv.bool(true),
      "tokenizer.ggml.tokens": kv.strings(["<unk>", "<s>", "\u2581", "é"]),
      "tokenizer.ggml.token_type": kv.i32s([2, 3, 1, 1]),
    },
    tensors: [
      { name: "a.weight", dims: [3], data: Float32Array.from([1, 2, 3]) }, // 12 bytes: next needs padding
      { name: "b.weight", dims: [2, 3], data: Float32Array.from([0.5, -1, 2, 4, 8, 16]) },
    ],
  };

  it("writes the v3 header, typed KVs and 32-byte aligned F32 tensors", () => {
    const path = join(dir, "tiny.gguf");
    writeGguf(path, content);
    const buf = readFileSync(path);
    const gguf = readGguf(buf);

    expect(gguf.magic).toBe("GGUF");
    expect(gguf.version).toBe(3);
    expect(gguf.tensorCount).toBe(2);
    expect(gguf.kvCount).toBe(7);
    expect(gguf.kvs.get("general.name")).toBe("Tiny ▁ test");
    expect(gguf.kvs.get("llama.block_count")).toBe(1);
    expect(gguf.kvs.get("llama.attention.layer_norm_rms_epsilon")).toBeCloseTo(1e-5, 10);
    expect(gguf.kvs.get("tokenizer.ggml.add_bos_token")).toBe(true);
    expect(gguf.kvs.get("tokenizer.ggml.tokens")).toEqual(["<unk>", "<s>", "\u2581", "é"]);
    expect(gguf.kvs.get("tokenizer.ggml.token_type")).toEqual([2, 3, 1, 1]);

    expect(gguf.tensors.map((t) => [t.name, t.dims, t.type, t.offset])).toEqual([
      ["a.weight", [3], 0, 0],
      ["b.weight", [2, 3], 0, 32],
    ]);
    expect(gguf.dataStart % 32).toBe(0);
    const b = gguf.tensors[1];
    if (!b) throw new Error("missing tensor");
    const start = gguf.dataStart + b.offset;
    expect(
      Array.from(new Float32Array(buf.buffer.slice(start + buf.byteOffset, start + buf.byteOffset + 24))),
    ).toEqual([0.5, -1, 2, 4, 8, 16]);
    expect(buf.length).toBe(start + 24);
  });

  it("is read back by node-llama-cpp's own GGUF parser", async () => {
    const path = join(dir, "tiny-llama-cpp.gguf");
    writeGguf(path, content);
    const info = await readGgufFileInfo(path, { readTensorInfo: true });
    expect(info.version).toBe(3);
    expect(info.metadata.general.architecture).toBe("llama");
    expect(info.metadata.general.name).toBe("Tiny ▁ test");
    expect(info.metadata.tokenizer?.ggml.tokens).toEqual(["<unk>", "<s>", "\u2581", "é"]);
    expect(info.fullTensorInfo?.map((t) => t.name)).toEqual(["a.weight", "b.weight"]);
  });

  it("rejects a tensor whose data does not match its dims", () => {
    expect(() =>
      encodeGguf({ kv: {}, tensors: [{ name: "bad", dims: [2, 2], data: new Float32Array(3) }] }),
    ).toThrow(/need 4 values, got 3/);
  });
});
