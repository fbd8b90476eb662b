// The tiny model's byte-level vocabulary and chat template. tokenizer.py builds the same list
// in the same order; build-gguf.ts refuses weights whose exported token list differs.

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

/**
 * `<unk> <s> </s>`, the 256 byte tokens (byte fallback for newlines and non-ASCII), `▁` (the
 * space, as SentencePiece escapes it), the 94 printable ASCII characters, then the two ChatML
 * markers. No multi-character pieces, so SentencePiece tokenization is one token per character.
 */
export function buildVocab(): Vocab {
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
  return {
    tokens,
    types,
    scores: tokens.map(() => 0),
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

/**
 * Token ids llama.cpp should produce for plain text (no special tokens parsed, no BOS): one
 * token per printable ASCII character, `▁` for a space, byte tokens for everything else.
 */
export function expectedTokenIds(text: string): number[] {
  const vocab = buildVocab();
  const space = vocab.tokens.indexOf("\u2581");
  const ids: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === " ") ids.push(space);
    else if (code >= 0x21 && code <= 0x7e) ids.push(space + 1 + (code - 0x21));
    else for (const byte of Buffer.from(ch, "utf8")) ids.push(3 + byte);
  }
  return ids;
}
