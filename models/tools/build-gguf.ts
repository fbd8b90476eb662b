// Builds a llama-architecture GGUF from the trainer's export (model.json + model.bin), or from
// random weights for smoke tests.
//
//   npx tsx models/tools/build-gguf.ts --weights /tmp/hearth-train/model.json --out models/hearth-tiny.gguf
//   npx tsx models/tools/build-gguf.ts --random --out /tmp/hearth-tiny-smoke.gguf
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type GgufTensor, type GgufValue, kv, writeGguf } from "./gguf-writer.ts";
import { buildVocab, CHAT_TEMPLATE } from "./vocab.ts";

/** Hyperparameters, as train.py exports them. */
export interface ModelConfig {
  dim: number;
  layers: number;
  heads: number;
  kvHeads: number;
  ffn: number;
  vocabSize: number;
  normEps: number;
  ropeBase: number;
}

/** model.json written by train.py; tensor shapes are torch's (row-major, last dim contiguous). */
interface TrainerExport {
  config: ModelConfig;
  tokens: string[];
  tensors: { name: string; shape: number[]; offset: number }[];
  weightsFile: string;
  /** The training window in tokens: written as llama.context_length. */
  seq?: number;
}

export const MODEL_NAME = "Hearth Tiny Roleplay";

function metadata(config: ModelConfig, contextLength: number): Record<string, GgufValue> {
  const vocab = buildVocab();
  if (vocab.tokens.length !== config.vocabSize) {
    throw new Error(`config.vocabSize ${config.vocabSize} != vocabulary size ${vocab.tokens.length}`);
  }
  return {
    "general.architecture": kv.str("llama"),
    "general.name": kv.str(MODEL_NAME),
    "general.file_type": kv.u32(0), // all F32
    "llama.context_length": kv.u32(contextLength),
    "llama.embedding_length": kv.u32(config.dim),
    "llama.block_count": kv.u32(config.layers),
    "llama.feed_forward_length": kv.u32(config.ffn),
    "llama.attention.head_count": kv.u32(config.heads),
    "llama.attention.head_count_kv": kv.u32(config.kvHeads),
    "llama.attention.layer_norm_rms_epsilon": kv.f32(config.normEps),
    "llama.rope.dimension_count": kv.u32(config.dim / config.heads),
    "llama.rope.freq_base": kv.f32(config.ropeBase),
    "llama.vocab_size": kv.u32(config.vocabSize),
    "tokenizer.ggml.model": kv.str("llama"),
    "tokenizer.ggml.tokens": kv.strings(vocab.tokens),
    "tokenizer.ggml.scores": kv.f32s(vocab.scores),
    "tokenizer.ggml.token_type": kv.i32s(vocab.types),
    "tokenizer.ggml.unknown_token_id": kv.u32(vocab.unk),
    "tokenizer.ggml.bos_token_id": kv.u32(vocab.bos),
    "tokenizer.ggml.eos_token_id": kv.u32(vocab.eos),
    // <|im_end|> ends an assistant turn: marking it end-of-turn makes llama.cpp stop on it.
    "tokenizer.ggml.eot_token_id": kv.u32(vocab.imEnd),
    "tokenizer.ggml.add_bos_token": kv.bool(true),
    "tokenizer.ggml.add_eos_token": kv.bool(false),
    "tokenizer.ggml.add_space_prefix": kv.bool(false),
    "tokenizer.chat_template": kv.str(CHAT_TEMPLATE),
  };
}

/** Torch [out, in] row-major is ggml [in, out] (ne0 contiguous): reverse the shape. */
function toGgmlDims(shape: number[]): number[] {
  return [...shape].reverse();
}

function loadTrainerExport(jsonPath: string): { config: ModelConfig; tensors: GgufTensor[]; seq?: number } {
  const exported = JSON.parse(readFileSync(jsonPath, "utf8")) as TrainerExport;
  const expected = buildVocab().tokens;
  const mismatch = expected.findIndex((t, i) => exported.tokens[i] !== t);
  if (mismatch !== -1 || exported.tokens.length !== expected.length) {
    throw new Error(`trainer vocabulary differs from vocab.ts (first difference at id ${mismatch})`);
  }
  const bin = readFileSync(join(dirname(jsonPath), exported.weightsFile));
  // Copy into an aligned buffer: Float32Array views need 4-byte aligned offsets.
  const floats = new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.byteLength));
  const tensors = exported.tensors.map(({ name, shape, offset }) => {
    const count = shape.reduce((a, b) => a * b, 1);
    return { name, dims: toGgmlDims(shape), data: floats.subarray(offset / 4, offset / 4 + count) };
  });
  return { config: exported.config, tensors, seq: exported.seq };
}

/** A small untrained model: enough to exercise loading, tokenizing and sampling. */
function randomModel(): { config: ModelConfig; tensors: GgufTensor[] } {
  const config: ModelConfig = {
    dim: 64,
    layers: 2,
    heads: 4,
    kvHeads: 4,
    ffn: 176,
    vocabSize: buildVocab().tokens.length,
    normEps: 1e-5,
    ropeBase: 10000,
  };
  return { config, tensors: randomTensors(config) };
}

/** Deterministic small random weights (mulberry32), enough to exercise loading and sampling. */
function randomTensors(config: ModelConfig, seed = 1): GgufTensor[] {
  let state = seed >>> 0;
  const rand = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const matrix = (name: string, rows: number, cols: number): GgufTensor => {
    const data = new Float32Array(rows * cols).map(() => (rand() * 2 - 1) * 0.05);
    return { name, dims: [cols, rows], data };
  };
  const ones = (name: string, n: number): GgufTensor => ({
    name,
    dims: [n],
    data: new Float32Array(n).fill(1),
  });
  const { dim, ffn, vocabSize, layers } = config;
  const kvDim = (dim / config.heads) * config.kvHeads;
  const tensors = [matrix("token_embd.weight", vocabSize, dim)];
  for (let i = 0; i < layers; i++) {
    tensors.push(
      ones(`blk.${i}.attn_norm.weight`, dim),
      matrix(`blk.${i}.attn_q.weight`, dim, dim),
      matrix(`blk.${i}.attn_k.weight`, kvDim, dim),
      matrix(`blk.${i}.attn_v.weight`, kvDim, dim),
      matrix(`blk.${i}.attn_output.weight`, dim, dim),
      ones(`blk.${i}.ffn_norm.weight`, dim),
      matrix(`blk.${i}.ffn_gate.weight`, ffn, dim),
      matrix(`blk.${i}.ffn_up.weight`, ffn, dim),
      matrix(`blk.${i}.ffn_down.weight`, dim, ffn),
    );
  }
  tensors.push(ones("output_norm.weight", dim));
  return tensors; // no output.weight: llama.cpp ties it to token_embd
}

/** Writes the untrained random model (the real vocabulary and template): for wiring tests. */
export function writeRandomModel(path: string): void {
  const { config, tensors } = randomModel();
  writeGguf(path, { kv: metadata(config, 2048), tensors });
}

function main(): void {
  const { values } = parseArgs({
    options: {
      weights: { type: "string" },
      random: { type: "boolean", default: false },
      out: { type: "string" },
      // Defaults to the window the weights were trained on (model.json "seq"): the server
      // budgets prompts to llama.context_length, so it must be the real one.
      context: { type: "string" },
    },
  });
  if (!values.out || (!values.weights && !values.random)) {
    console.error("usage: build-gguf.ts (--weights model.json | --random) --out file.gguf [--context N]");
    process.exit(2);
  }
  const { config, tensors, seq } = values.weights
    ? loadTrainerExport(values.weights)
    : { ...randomModel(), seq: 2048 };
  const context = Number(values.context ?? seq);
  if (!Number.isInteger(context) || context <= 0) throw new Error("no context length: pass --context");
  writeGguf(values.out, { kv: metadata(config, context), tensors: tensors });
  const params = tensors.reduce((n, t) => n + t.data.length, 0);
  console.log(`wrote ${values.out}: ${tensors.length} tensors, ${params} parameters, context ${context}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
