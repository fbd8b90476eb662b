// The tiny model's subword vocabulary and chat template. tokenizer.py builds the same list
// in the same order; build-gguf.ts refuses weights whose exported token list differs.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** ChatML markers, added as single control tokens so a turn boundary costs one token each. */
export const IM_START = "<|im_start|>";
export const IM_END = "<|im_end|>";

/** llama.cpp token types. */
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const BYTE = 6;

export interface Vocab {
  tokens: string[];
  types: number[];
  scores: number[];
  unk: number;
  bos: number;
  eos: number;
  imStart: number;
  imEnd: number;
}

/** The learned merges (tokenizer.py --train): token id = 356 + index, score = -index. */
export const TOKENS_FILE = fileURLToPath(new URL("./hearth-tokens.json", import.meta.url));

/**
 * `<unk> <s> </s>`, the 256 byte tokens (byte fallback for newlines and non-ASCII), `▁` (the
 * space, as SentencePiece escapes it), the 94 printable ASCII characters, the two ChatML
 * markers, then the BPE pieces in merge order. llama.cpp's SPM tokenizer merges the adjacent
 * pair whose concatenation scores highest, so score = -rank reproduces tokenizer.py.
 */
export function buildVocab(tokensFile = TOKENS_FILE): Vocab {
  const tokens: string[] = ["<unk>", "<s>", "</s>"];
  const types: number[] = [UNKNOWN, CONTROL, CONTROL];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(BYTE);
  }
  tokens.push("\u2581");
  types.push(NORMAL);
  for (let c = 0x21; c <= 0x7e; c++) {
    tokens.push(String.fromCharCode(c));
    types.push(NORMAL);
  }
  tokens.push(IM_START, IM_END);
  types.push(CONTROL, CONTROL);
  const base = tokens.length;
  const { merges } = JSON.parse(readFileSync(tokensFile, "utf8")) as { merges: string[] };
  for (const piece of merges) {
    tokens.push(piece);
    types.push(NORMAL);
  }
  return {
    tokens,
    types,
    scores: tokens.map((_, i) => (i < base ? 0 : -(i - base))),
    unk: 0,
    bos: 1,
    eos: 2,
    imStart: tokens.indexOf(IM_START),
    imEnd: tokens.indexOf(IM_END),
  };
}

/**
 * Standard ChatML (the template llama.cpp and node-llama-cpp recognise as "chatml"), with the
 * BOS token first as node-llama-cpp's ChatML wrapper renders it. Training data is formatted
 * exactly like this (tokenizer.py: format_chat).
 */
export const CHAT_TEMPLATE =
  "{{ bos_token }}{% for message in messages %}" +
  "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}" +
  "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";
