"""Subword tokenizer of the tiny model: what llama.cpp's SentencePiece (SPM) tokenizer computes
for the vocabulary build-gguf.ts writes (`tokenizer.ggml.model = llama`, add_space_prefix=false).

Vocabulary (vocab.ts builds the same list from hearth-tokens.json):
  0 <unk>, 1 <s>, 2 </s>, 3-258 byte fallback <0x00>..<0xFF>, 259 "▁" (the space),
  260-353 the printable ASCII characters, 354 <|im_start|>, 355 <|im_end|>,
  356... the merged pieces learned by `train_bpe` (score = -rank; base tokens score 0).

Encoding is llama.cpp's SPM algorithm: spaces become "▁"; start from single characters and
repeatedly merge the adjacent pair whose concatenation is a token with the highest score (the
leftmost on ties); characters that are no token become their UTF-8 byte tokens. Learned pieces
hold "▁" only first and never a newline, so no token crosses a point before a "▁" or around a
"\\n": the text splits there into pieces that are encoded independently (and cached).

    /usr/bin/python3 models/tools/tokenizer.py --train data.jsonl --size 4096 --out models/tools/hearth-tokens.json
"""
import json
import os
import re

IM_START = "<|im_start|>"
IM_END = "<|im_end|>"
SPACE_CHAR = "\u2581"
TOKENS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hearth-tokens.json")


def base_tokens():
    tokens = ["<unk>", "<s>", "</s>"]
    tokens += [f"<0x{b:02X}>" for b in range(256)]
    tokens.append(SPACE_CHAR)
    tokens += [chr(c) for c in range(0x21, 0x7F)]
    tokens += [IM_START, IM_END]
    return tokens


BASE = base_tokens()
BOS, EOS = 1, 2
SPACE = BASE.index(SPACE_CHAR)
IM_START_ID = BASE.index(IM_START)
IM_END_ID = BASE.index(IM_END)
PIECE = re.compile(f"\n|{SPACE_CHAR}[^{SPACE_CHAR}\n]*|[^{SPACE_CHAR}\n]+")


class Tokenizer:
    def __init__(self, merges):
        self.tokens = BASE + list(merges)
        self.scores = [0.0] * len(BASE) + [-float(rank) for rank in range(len(merges))]
        self.ids = {t: i for i, t in enumerate(self.tokens)}
        assert len(self.ids) == len(self.tokens), "duplicate token"
        self.cache = {}

    def encode_piece(self, piece):
        cached = self.cache.get(piece)
        if cached is not None:
            return cached
        syms = list(piece)
        while len(syms) > 1:
            best, best_score = -1, None
            for i in range(len(syms) - 1):
                tid = self.ids.get(syms[i] + syms[i + 1])
                if tid is not None and (best_score is None or self.scores[tid] > best_score):
                    best, best_score = i, self.scores[tid]
            if best < 0:
                break
            syms[best:best + 2] = [syms[best] + syms[best + 1]]
        out = []
        for s in syms:
            tid = self.ids.get(s)
            if tid is not None:
                out.append(tid)
            else:
                out.extend(3 + b for b in s.encode("utf-8"))
        if len(self.cache) < 500_000:
            self.cache[piece] = out
        return out

    def encode(self, text):
        """Plain text to ids (no special tokens parsed, no BOS), as llama.cpp's tokenize."""
        ids = []
        for piece in PIECE.findall(text.replace(" ", SPACE_CHAR)):
            ids.extend(self.encode_piece(piece))
        return ids

    def decode(self, ids):
        out = bytearray()
        for i in ids:
            if 3 <= i < 259:
                out.append(i - 3)
            else:
                out += self.tokens[i].replace(SPACE_CHAR, " ").encode()
        return out.decode("utf-8", errors="replace")


def load_tokenizer(path=TOKENS_FILE):
    return Tokenizer(json.load(open(path))["merges"])


def train_bpe(texts, size):
    """Learns size - len(BASE) merges over the pieces of `texts` (byte-pair encoding)."""
    counts = {}
    allowed = set(BASE[SPACE:IM_START_ID])
    for text in texts:
        for piece in PIECE.findall(text.replace(" ", SPACE_CHAR)):
            if piece != "\n" and len(piece) > 1:
                counts[piece] = counts.get(piece, 0) + 1
    words = [list(w) for w in counts if all(c in allowed for c in w)]
    freq = [counts["".join(w)] for w in words]
    pairs, where = {}, {}
    for wi, w in enumerate(words):
        for a, b in zip(w, w[1:]):
            pairs[(a, b)] = pairs.get((a, b), 0) + freq[wi]
            where.setdefault((a, b), set()).add(wi)
    merges, taken = [], set(BASE)
    while len(merges) < size - len(BASE) and pairs:
        pair = max(pairs, key=lambda p: (pairs[p], p))
        if pairs[pair] < 2:
            break
        merged = pair[0] + pair[1]
        for wi in list(where.get(pair, ())):
            w, f = words[wi], freq[wi]
            for a, b in zip(w, w[1:]):
                pairs[(a, b)] -= f
                where[(a, b)].discard(wi)
            i, new = 0, []
            while i < len(w):
                if i + 1 < len(w) and w[i] == pair[0] and w[i + 1] == pair[1]:
                    new.append(merged)
                    i += 2
                else:
                    new.append(w[i])
                    i += 1
            words[wi] = new
            for a, b in zip(new, new[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + f
                where.setdefault((a, b), set()).add(wi)
        pairs.pop(pair, None)
        where.pop(pair, None)
        if merged not in taken:
            taken.add(merged)
            merges.append(merged)
    return merges


def chat_texts(messages):
    """The plain-text fragments of a ChatML chat (between the control tokens)."""
    out = []
    for m in messages:
        out += [m["role"] + "\n" + m["content"], "\n"]
    return out


FIXTURE_EXTRAS = [
    "Hello", "Hello world", " leading space", "two  spaces", "trailing ", "   ", "a\nb\n\nc", "\n\nHi\n",
    "Café, naïve façade, crème brûlée", "Ünïcödé Ærøskøbing Łódź", "🙂 emoji 👍🏽 and 👨‍👩‍👧", "日本語のテキスト", "Привет, мир",
    "{{user}} and {{char}}", "*waves* Hi, Sam!", "*Bramble Hollowell wipes her hands on her apron.* Eat first.",
    "Well, don't just stand there letting the warm out, Maya!", "\t tab\tand\r\ncrlf", "x\u2581y", "<|im_end|> typed",
    "<s> </s> <unk>", "<0x0A>", "C'est la vie... -- \"quoted\" (parens) [brackets] {braces} #hash @at 100% $5 & more!!!",
    "ALL CAPS SHOUTING", "mIxEd CaSe", "Vera Kane", "Ser Aldric the Unready", "Koji Tanabe", "Juniper Okafor",
    "Ottoline Quill", "Halcyon", "Wren Ashby", "1947, 4:12, 3.14159, 1,000,000", "e-mail: someone@example.com",
    "https://example.com/path?q=1", "**Appearance:**\n- Hair: red\n- Eyes: green", "## Backstory\n\nShe grew up...",
    "Zzzxqj qqq vvv", "a", " ", "", "the the the the", "...", "?!?!", "~`^|\\",
]


def fixture(dialogues_path, out_path, tok):
    """Strings and the ids this tokenizer gives them: tokenizer.test.ts checks llama.cpp agrees."""
    strings = list(FIXTURE_EXTRAS)
    for line in open(dialogues_path):
        for m in json.loads(line)["messages"]:
            text = m["content"]
            start = len(text) // 3 if len(text) > 600 else 0
            strings.append(text[start:start + 500])
        if len(strings) > 400:
            break
    items = [{"text": s, "ids": tok.encode(s)} for s in strings]
    with open(out_path, "w") as f:
        json.dump({"about": "tokenizer.py ids; regenerate: tokenizer.py --fixture bench/model-eval.heldout.jsonl",
                   "items": items}, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {len(items)} strings to {out_path}")


def main():
    import argparse
    import time
    p = argparse.ArgumentParser()
    p.add_argument("--train", help="dialogues .jsonl")
    p.add_argument("--fixture", help="held-out dialogues .jsonl: write tokenizer-fixture.json instead of training")
    p.add_argument("--size", type=int, default=4096, help="vocabulary size including the 356 base tokens")
    p.add_argument("--limit", type=int, default=8000, help="dialogues to learn from")
    p.add_argument("--out", default=TOKENS_FILE)
    args = p.parse_args()
    if args.fixture:
        return fixture(args.fixture, os.path.join(os.path.dirname(TOKENS_FILE), "tokenizer-fixture.json"), load_tokenizer())
    started = time.time()
    texts = []
    with open(args.train) as f:
        for n, line in enumerate(f):
            if n >= args.limit:
                break
            texts += chat_texts(json.loads(line)["messages"])
    merges = train_bpe(texts, args.size)
    with open(args.out, "w") as f:
        json.dump({"about": "Hearth tiny model: BPE merges (tokenizer.py); token id = 356 + index, score = -index",
                   "merges": merges}, f, indent=0, ensure_ascii=False)
        f.write("\n")
    tok = Tokenizer(merges)
    chars = sum(len(t) for t in texts[:2000])
    ids = sum(len(tok.encode(t)) for t in texts[:2000])
    print(f"{len(merges)} merges -> {len(tok.tokens)} tokens in {time.time() - started:.0f}s; "
          f"{chars / ids:.2f} characters per token on the training text", flush=True)


if __name__ == "__main__":
    main()
