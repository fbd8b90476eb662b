"""Byte-level tokenizer of the tiny model, identical to vocab.ts (build-gguf.ts checks the list).

One token per printable ASCII character, U+2581 for a space, byte tokens for everything else,
and the ChatML markers as single control tokens. This is what llama.cpp's SentencePiece
tokenizer produces for this vocabulary with add_space_prefix=false.
"""

IM_START = "<|im_start|>"
IM_END = "<|im_end|>"


def build_vocab():
    tokens = ["<unk>", "<s>", "</s>"]
    tokens += [f"<0x{b:02X}>" for b in range(256)]
    tokens.append("\u2581")
    tokens += [chr(c) for c in range(0x21, 0x7F)]
    tokens += [IM_START, IM_END]
    return tokens


VOCAB = build_vocab()
BOS, EOS = 1, 2
SPACE = VOCAB.index("\u2581")
IM_START_ID = VOCAB.index(IM_START)
IM_END_ID = VOCAB.index(IM_END)


def encode_text(text):
    """Plain text to ids (no special tokens parsed)."""
    ids = []
    for ch in text:
        code = ord(ch)
        if ch == " ":
            ids.append(SPACE)
        elif 0x21 <= code <= 0x7E:
            ids.append(SPACE + 1 + code - 0x21)
        else:
            ids.extend(3 + b for b in ch.encode("utf-8"))
    return ids


def encode_chat(messages, char_weights=None):
    """ChatML exactly as the GGUF's chat template renders it (BOS first).

    Returns (ids, weights): the loss weight of each token as a target. Only assistant content
    and the <|im_end|> that ends it are learned (weight 1, or char_weights(content) per char).
    """
    ids, weights = [BOS], [0.0]
    for message in messages:
        head = [IM_START_ID] + encode_text(message["role"] + "\n")
        ids += head
        weights += [0.0] * len(head)
        learn = message["role"] == "assistant"
        content = message["content"]
        per_char = char_weights(content) if learn and char_weights else [float(learn)] * len(content)
        for ch, w in zip(content, per_char):
            ch_ids = encode_text(ch)
            ids += ch_ids
            weights += [w] * len(ch_ids)
        ids += [IM_END_ID] + encode_text("\n")
        weights += [float(learn), 0.0]
    return ids, weights


def decode(ids):
    out = bytearray()
    for i in ids:
        if 3 <= i < 259:
            out.append(i - 3)
        elif i == SPACE:
            out += b" "
        else:
            out += VOCAB[i].encode()
    return out.decode("utf-8", errors="replace")
