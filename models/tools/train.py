#!/usr/bin/python3
"""Trains the tiny llama-architecture roleplay model on CPU and exports it for build-gguf.ts.

The model is exactly what llama.cpp computes for general.architecture=llama: RMSNorm, RoPE
rotating ADJACENT pairs (x[2i], x[2i+1]) as llama.cpp's normal RoPE mode does, SwiGLU FFN,
output tied to the token embedding (no output.weight: llama.cpp falls back to token_embd).
Training runs for a wall-clock budget (or --steps): warmup, then cosine LR decay over the run.

    /usr/bin/python3 models/tools/train.py --data /tmp/hearth-data/dialogues.jsonl --out /tmp/hearth-train --minutes 20
"""
import argparse
import json
import math
import os
import random
import time

# One BLAS thread: OpenBLAS's own pool fights torch's OpenMP threads (measured 3-8x slower here).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from tokenizer import BOS, EOS, IM_END_ID, IM_START_ID, load_tokenizer

TOK = load_tokenizer()
VOCAB = TOK.tokens


def encode_chat(messages, char_weights=None):
    """ChatML exactly as the GGUF's chat template renders it (BOS first); each fragment between
    control tokens is tokenized as llama.cpp does (tokenizer.py). Returns (ids, weights): only
    assistant content and its <|im_end|> are targets (weight 1, or the max of char_weights over
    the characters a token covers)."""
    ids, weights = [BOS], [0.0]
    for message in messages:
        head = [IM_START_ID] + TOK.encode(message["role"] + "\n")
        ids += head
        weights += [0.0] * len(head)
        learn = message["role"] == "assistant"
        content = message["content"]
        content_ids = TOK.encode(content)
        if learn and char_weights:
            per_char, pos = char_weights(content), 0
            for t in content_ids:
                text = TOK.tokens[t]
                n = (0 if 0x80 <= t - 3 < 0xC0 else 1) if 3 <= t < 259 else len(text)
                weights.append(max(per_char[pos:pos + n] or [1.0]))
                pos += n
        else:
            weights += [float(learn)] * len(content_ids)
        ids += content_ids + [IM_END_ID] + TOK.encode("\n")
        weights += [float(learn), 0.0]
    return ids, weights


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps, self.weight = eps, nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_tables(head_dim, length, base, device=None):
    inv_freq = base ** (-torch.arange(0, head_dim, 2, device=device).float() / head_dim)
    angles = torch.arange(length, device=device).float()[:, None] * inv_freq[None, :]  # [T, head_dim/2]
    return angles.cos(), angles.sin()


def apply_rope(x, cos, sin):
    """x: [B, H, T, head_dim]; rotates adjacent pairs like llama.cpp (not GPT-NeoX halves)."""
    even, odd = x[..., 0::2], x[..., 1::2]
    rotated = torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1)
    return rotated.flatten(-2)


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        dim, self.heads = cfg["dim"], cfg["heads"]
        self.attn_norm, self.ffn_norm = RMSNorm(dim, cfg["normEps"]), RMSNorm(dim, cfg["normEps"])
        self.q, self.k, self.v, self.o = (nn.Linear(dim, dim, bias=False) for _ in range(4))
        self.gate, self.up = nn.Linear(dim, cfg["ffn"], bias=False), nn.Linear(dim, cfg["ffn"], bias=False)
        self.down = nn.Linear(cfg["ffn"], dim, bias=False)

    def forward(self, x, cos, sin, segments):
        b, t, d = x.shape
        h = self.attn_norm(x)
        q, k, v = (proj(h).view(b, t, self.heads, -1).transpose(1, 2) for proj in (self.q, self.k, self.v))
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        # Packed rows hold several dialogues: causal attention within each one (cost: the sum of
        # squared dialogue lengths instead of the squared row length). Padding attends nowhere.
        rows = []
        for r in range(b):
            parts = []
            for s, e, real in segments[r]:
                if not real:
                    parts.append(torch.zeros_like(v[r, :, s:e]))
                    continue
                scores = (q[r, :, s:e] @ k[r, :, s:e].transpose(-2, -1)) / math.sqrt(q.shape[-1])
                causal = torch.ones(e - s, e - s, dtype=torch.bool, device=x.device).tril()
                parts.append(scores.masked_fill(~causal, float("-inf")).softmax(-1) @ v[r, :, s:e])
            rows.append(torch.cat(parts, dim=1))
        attn = torch.stack(rows)
        x = x + self.o(attn.transpose(1, 2).reshape(b, t, d))
        h = self.ffn_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class TinyLlama(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg["vocabSize"], cfg["dim"])
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg["layers"]))
        self.norm = RMSNorm(cfg["dim"], cfg["normEps"])
        nn.init.normal_(self.embed.weight, std=0.02)
        for name, p in self.named_parameters():
            if name.endswith(("o.weight", "down.weight")):  # GPT-2 style residual scaling
                nn.init.normal_(p, std=0.02 / math.sqrt(2 * cfg["layers"]))

    def forward(self, ids, doc_ids):
        t = ids.shape[1]
        cos, sin = rope_tables(self.cfg["dim"] // self.cfg["heads"], t, self.cfg["ropeBase"], ids.device)
        segments = [doc_segments(row) for row in doc_ids.tolist()]
        x = self.embed(ids)
        for block in self.blocks:
            x = block(x, cos, sin, segments)
        return self.norm(x) @ self.embed.weight.t()

    def gguf_tensors(self):
        """(GGUF name, tensor) in torch layout; build-gguf.ts reverses shapes to ggml order."""
        out = [("token_embd.weight", self.embed.weight)]
        for i, blk in enumerate(self.blocks):
            out += [(f"blk.{i}.attn_norm.weight", blk.attn_norm.weight), (f"blk.{i}.attn_q.weight", blk.q.weight),
                    (f"blk.{i}.attn_k.weight", blk.k.weight), (f"blk.{i}.attn_v.weight", blk.v.weight),
                    (f"blk.{i}.attn_output.weight", blk.o.weight), (f"blk.{i}.ffn_norm.weight", blk.ffn_norm.weight),
                    (f"blk.{i}.ffn_gate.weight", blk.gate.weight), (f"blk.{i}.ffn_up.weight", blk.up.weight),
                    (f"blk.{i}.ffn_down.weight", blk.down.weight)]
        return out + [("output_norm.weight", self.norm.weight)]


def doc_segments(docs):
    """[(start, end, is_dialogue)] runs of equal dialogue ids in one packed row."""
    out, start = [], 0
    for i in range(1, len(docs) + 1):
        if i == len(docs) or docs[i] != docs[start]:
            out.append((start, i, docs[start] >= 0))
            start = i
    return out


def name_weights(names, weight):
    """Per-char loss weights for assistant text: the character's and the user's names count
    `weight` times. Copying names from the card is the skill that makes unseen characters work,
    and the hardest one for a tiny model to pick up (it otherwise invents a plausible name)."""

    def weigh(content):
        w = [1.0] * len(content)
        for name in names:
            start = content.find(name)
            while start != -1:
                w[start:start + len(name)] = [weight] * len(name)
                start = content.find(name, start + 1)
        return w

    return weigh


def fit_dialogue(dialogue, seq, weight):
    """Encodes a dialogue; if too long, drops the oldest exchanges after the system turns and the
    greeting (as the server trims history), then the example turn. None if it still does not fit."""
    messages, weigh = dialogue["messages"], name_weights([dialogue["char"], dialogue["user"]], weight)
    while True:
        ids, weights = encode_chat(messages, weigh)
        if len(ids) <= seq:
            return ids, weights, sum(len(m["content"]) for m in messages if m["role"] == "assistant")
        keep = next(i for i, m in enumerate(messages) if m["role"] == "user")
        if len(messages) - keep > 3:
            messages = messages[:keep] + messages[keep + 2:]
        elif keep > 1 and messages[1]["role"] == "system":
            messages = messages[:1] + messages[2:]
        else:
            return None


def pack(dialogues, seq):
    """First-fit packing of whole dialogues into rows of `seq` tokens; padding has weight 0.
    Returns ids, target weights and per-token dialogue ids (for the attention mask)."""
    rows = []
    for doc, (ids, weights, _) in enumerate(dialogues):
        row = next((r for r in rows[-64:] if len(r[0]) + len(ids) <= seq), None)
        if row is None:
            row = ([], [], [])
            rows.append(row)
        row[0].extend(ids), row[1].extend(weights), row[2].extend([doc] * len(ids))
    padded = []
    for ids, weights, docs in rows:
        pad = seq - len(ids)
        padded.append((ids + [EOS] * pad, weights + [0.0] * pad, docs + [-1 - len(padded)] * pad))
    return tuple(torch.tensor([r[i] for r in padded]) for i in range(3))


def weighted_loss_sum(model, ids, weights, docs):
    device = model.embed.weight.device
    ids, weights, docs = ids.to(device), weights.to(device), docs.to(device)
    logits = model(ids[:, :-1], docs[:, :-1])
    losses = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1), reduction="none")
    return (losses * weights[:, 1:].reshape(-1)).sum()


def accumulate(model, ids, weights, docs, micro, backward):
    """Weighted mean loss over micro-batches. Small micro-batches keep the [B, H, T, T] attention
    tensors small, which on CPU is faster than one big batch (less memory traffic)."""
    total, norm = 0.0, float(weights[:, 1:].sum())
    for i in range(0, len(ids), micro):
        part = slice(i, i + micro)
        if float(weights[part, 1:].sum()) == 0:
            continue
        loss = weighted_loss_sum(model, ids[part], weights[part], docs[part]) / norm
        if backward:
            loss.backward()
        total += loss.item()
    return total


def load_export(model, json_path):
    """Loads weights written by export() (to continue training from them)."""
    exported = json.load(open(json_path))
    raw = open(os.path.join(os.path.dirname(json_path), exported["weightsFile"]), "rb").read()
    params = dict(model.gguf_tensors())
    for t in exported["tensors"]:
        p = params[t["name"]]
        data = torch.frombuffer(bytearray(raw[t["offset"]:t["offset"] + 4 * p.numel()]), dtype=torch.float32)
        p.data.copy_(data.view_as(p))


@torch.no_grad()
def greedy_reply(model, messages, max_tokens=120):
    """Greedy continuation of a chat; used to compare against llama.cpp's output after export."""
    ids, _ = encode_chat(messages)
    ids += [IM_START_ID] + TOK.encode("assistant\n")
    out = []
    for _ in range(max_tokens):
        x = torch.tensor([ids + out], device=model.embed.weight.device)
        nxt = int(model(x, torch.zeros_like(x))[0, -1].argmax())
        if nxt in (IM_END_ID, EOS):
            break
        out.append(nxt)
    return TOK.decode(out)


def export(model, out_dir, meta):
    os.makedirs(out_dir, exist_ok=True)
    tensors, offset = [], 0
    with open(os.path.join(out_dir, "model.bin"), "wb") as f:
        for name, t in model.gguf_tensors():
            data = t.detach().float().cpu().contiguous().numpy().astype("<f4").tobytes()
            tensors.append({"name": name, "shape": list(t.shape), "offset": offset})
            f.write(data)
            offset += len(data)
    with open(os.path.join(out_dir, "model.json"), "w") as f:
        json.dump({"config": model.cfg, "tokens": VOCAB, "tensors": tensors, "weightsFile": "model.bin", **meta}, f)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="/tmp/hearth-data/dialogues.jsonl")
    p.add_argument("--out", default="/tmp/hearth-train")
    p.add_argument("--dim", type=int, default=192)
    p.add_argument("--layers", type=int, default=6)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--ffn", type=int, default=512)
    p.add_argument("--seq", type=int, default=2048)
    p.add_argument("--batch", type=int, default=4)
    p.add_argument("--micro", type=int, default=1)
    p.add_argument("--limit", type=int, default=0, help="use only the first N dialogues of --data")
    # 1 thread by default: on a shared 2-core box OpenMP's barriers make 2 threads 2-8x slower.
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--device", default="auto", help="auto (cuda when available), cpu or cuda")
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--minutes", type=float, default=20, help="wall-clock budget")
    p.add_argument("--steps", type=int, default=0, help="fixed step count instead of a time budget")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--name-weight", type=float, default=4.0, help="loss weight of name characters")
    p.add_argument("--init", help="model.json of an earlier run to continue from")
    p.add_argument("--save-every", type=float, default=10, help="minutes between interim exports to --out")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)

    dialogues = [json.loads(line) for line in open(args.data)]
    if args.limit:
        dialogues = dialogues[:args.limit]
    held_out = 256
    t0 = time.time()
    encoded = [e for e in (fit_dialogue(d, args.seq, args.name_weight) for d in dialogues) if e is not None]
    print(f"encoded {len(encoded)} of {len(dialogues)} dialogues in {time.time() - t0:.0f}s "
          f"(longest {max(len(e[0]) for e in encoded)} tokens)", flush=True)
    val_chars = sum(e[2] for e in encoded[:held_out])
    train_ids, train_weights, train_docs = pack(encoded[held_out:], args.seq)
    val_ids, val_weights, val_docs = pack(encoded[:held_out], args.seq)
    val = (val_ids, (val_weights > 0).float(), val_docs)  # held-out loss: plain mean over targets
    print(f"{len(dialogues)} dialogues: {int((train_docs >= 0).sum())} train tokens "
          f"({int((train_weights > 0).sum())} of them assistant targets) in {len(train_ids)} rows of {args.seq}", flush=True)

    cfg = {"dim": args.dim, "layers": args.layers, "heads": args.heads, "kvHeads": args.heads, "ffn": args.ffn,
           "vocabSize": len(VOCAB), "normEps": 1e-5, "ropeBase": 10000.0}
    model = TinyLlama(cfg)
    if args.init:
        load_export(model, args.init)
        print(f"continuing from {args.init}", flush=True)
    # A CUDA GPU if torch sees one (never required); "cpu" otherwise.
    device = args.device if args.device != "auto" else ("cuda" if torch.cuda.is_available() else "cpu")
    model.to(device)
    print(f"device {device}", flush=True)
    params = sum(p.numel() for p in model.parameters())
    print(f"config {cfg}, {params} parameters", flush=True)
    decay = [p for n, p in model.named_parameters() if p.dim() == 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr, betas=(0.9, 0.95))

    budget, started, step, warmup = args.minutes * 60, time.time(), 0, 30
    order, last_save = list(range(len(train_ids))), time.time()
    def progress():  # fraction of the run done: by steps if given (reproducible), else by time
        return step / args.steps if args.steps else (time.time() - started) / budget

    while progress() < 1:
        if step % (len(order) // args.batch) == 0:
            rng.shuffle(order)
        batch = [order[(step * args.batch + i) % len(order)] for i in range(args.batch)]
        scale = min(1.0, (step + 1) / warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress())))
        for group in opt.param_groups:
            group["lr"] = args.lr * scale
        opt.zero_grad(set_to_none=True)
        loss = accumulate(model, train_ids[batch], train_weights[batch], train_docs[batch], args.micro, True)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        if time.time() - last_save > args.save_every * 60:
            export(model, args.out, {"params": params, "steps": step, "seq": args.seq, "interim": True})
            last_save = time.time()
        if step % 25 == 0:
            print(f"step {step} loss {loss:.4f} lr {args.lr * scale:.2e} {time.time() - started:.0f}s", flush=True)

    model.eval()
    with torch.no_grad():
        val_loss = accumulate(model, *val, args.micro, False)
    train_seconds = time.time() - started
    val_per_char = val_loss * float(val[1][:, 1:].sum()) / val_chars
    print(f"done: {step} steps, train loss {loss:.4f}, held-out loss {val_loss:.4f} nats/token, "
          f"{val_per_char:.4f} nats/char, {train_seconds:.0f}s", flush=True)
    export(model, args.out, {"params": params, "trainLoss": loss, "heldOutLoss": val_loss, "heldOutPerChar": val_per_char,
                             "trainSeconds": round(train_seconds), "steps": step, "seq": args.seq, "init": args.init})
    sample = [{"role": "system", "content": "You are Mira. A retired sea captain who keeps the lighthouse on the cliffs.\n"
               "Personality: gruff, kind\nScenario: A storm has driven Sam to the lighthouse door.\n"
               "You are talking with Sam."},
              {"role": "assistant", "content": "*Mira opens the door a crack.* Who's out there in this weather?"},
              {"role": "user", "content": "Hello! Can I come in?"}]
    print("greedy sample (compare with smoke.ts):", greedy_reply(model, sample), flush=True)


if __name__ == "__main__":
    main()
