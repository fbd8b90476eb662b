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

from tokenizer import EOS, IM_END_ID, IM_START_ID, VOCAB, decode, encode_chat, encode_text


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.eps, self.weight = eps, nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


def rope_tables(head_dim, length, base):
    inv_freq = base ** (-torch.arange(0, head_dim, 2).float() / head_dim)
    angles = torch.arange(length).float()[:, None] * inv_freq[None, :]  # [T, head_dim/2]
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

    def forward(self, x, cos, sin, mask):
        b, t, d = x.shape
        h = self.attn_norm(x)
        q, k, v = (proj(h).view(b, t, self.heads, -1).transpose(1, 2) for proj in (self.q, self.k, self.v))
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])
        attn = scores.masked_fill(~mask, float("-inf")).softmax(-1) @ v
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
        cos, sin = rope_tables(self.cfg["dim"] // self.cfg["heads"], t, self.cfg["ropeBase"])
        causal = torch.ones(t, t, dtype=torch.bool).tril()
        # Packed rows hold several dialogues: attend only within the same one.
        mask = (causal & (doc_ids[:, :, None] == doc_ids[:, None, :]))[:, None]
        x = self.embed(ids)
        for block in self.blocks:
            x = block(x, cos, sin, mask)
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


def name_weights(messages, weight):
    """Per-char loss weights for assistant text: the character's and the user's names count
    `weight` times. Copying names from the card is the skill that makes unseen characters work,
    and the hardest one for a tiny model to pick up (it otherwise invents a plausible name)."""
    card = messages[0]["content"]
    names = [card[len("You are "):card.index(". ")], card.rsplit("You are talking with ", 1)[-1].rstrip(".")]

    def weigh(content):
        w = [1.0] * len(content)
        for name in names:
            start = content.find(name)
            while start != -1:
                w[start:start + len(name)] = [weight] * len(name)
                start = content.find(name, start + 1)
        return w

    return weigh


def fit_dialogue(messages, seq, weight):
    """Encodes a dialogue; if too long, drops the oldest exchanges after the card (and greeting),
    as a server trims history to fit a context."""
    while True:
        ids, weights = encode_chat(messages, name_weights(messages, weight))
        if len(ids) <= seq or len(messages) <= 4:
            return ids[:seq], weights[:seq]
        keep = 2 if messages[1]["role"] == "assistant" else 1
        messages = messages[:keep] + messages[keep + 2:]


def pack(dialogues, seq):
    """Greedy packing of whole dialogues into rows of `seq` tokens; padding has weight 0.
    Returns ids, target weights and per-token dialogue ids (for the attention mask)."""
    rows, row = [], ([], [], [])
    for doc, (ids, weights) in enumerate(dialogues):
        if len(row[0]) + len(ids) > seq:
            rows.append(row)
            row = ([], [], [])
        row[0].extend(ids), row[1].extend(weights), row[2].extend([doc] * len(ids))
    rows.append(row)
    padded = []
    for ids, weights, docs in rows:
        pad = seq - len(ids)
        padded.append((ids + [EOS] * pad, weights + [0.0] * pad, docs + [-1 - len(padded)] * pad))
    return tuple(torch.tensor([r[i] for r in padded]) for i in range(3))


def weighted_loss_sum(model, ids, weights, docs):
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
    ids += [IM_START_ID] + encode_text("assistant\n")
    out = []
    for _ in range(max_tokens):
        x = torch.tensor([ids + out])
        nxt = int(model(x, torch.zeros_like(x))[0, -1].argmax())
        if nxt in (IM_END_ID, EOS):
            break
        out.append(nxt)
    return decode(out)


def export(model, out_dir, meta):
    os.makedirs(out_dir, exist_ok=True)
    tensors, offset = [], 0
    with open(os.path.join(out_dir, "model.bin"), "wb") as f:
        for name, t in model.gguf_tensors():
            data = t.detach().float().contiguous().numpy().astype("<f4").tobytes()
            tensors.append({"name": name, "shape": list(t.shape), "offset": offset})
            f.write(data)
            offset += len(data)
    with open(os.path.join(out_dir, "model.json"), "w") as f:
        json.dump({"config": model.cfg, "tokens": VOCAB, "tensors": tensors, "weightsFile": "model.bin", **meta}, f)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--data", default="/tmp/hearth-data/dialogues.jsonl")
    p.add_argument("--out", default="/tmp/hearth-train")
    p.add_argument("--dim", type=int, default=128)
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--ffn", type=int, default=352)
    p.add_argument("--seq", type=int, default=512)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--micro", type=int, default=4)
    # 1 thread by default: on a shared 2-core box OpenMP's barriers make 2 threads 2-8x slower.
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--minutes", type=float, default=20, help="wall-clock budget")
    p.add_argument("--steps", type=int, default=0, help="fixed step count instead of a time budget")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--name-weight", type=float, default=4.0, help="loss weight of name characters")
    p.add_argument("--init", help="model.json of an earlier run to continue from")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)

    dialogues = [json.loads(line)["messages"] for line in open(args.data)]
    held_out = 256
    encoded = [fit_dialogue(m, args.seq, args.name_weight) for m in dialogues]
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
    params = sum(p.numel() for p in model.parameters())
    print(f"config {cfg}, {params} parameters", flush=True)
    decay = [p for n, p in model.named_parameters() if p.dim() == 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr, betas=(0.9, 0.95))

    budget, started, step, warmup = args.minutes * 60, time.time(), 0, 30
    order = list(range(len(train_ids)))
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
        if step % 25 == 0:
            print(f"step {step} loss {loss:.4f} lr {args.lr * scale:.2e} {time.time() - started:.0f}s", flush=True)

    model.eval()
    with torch.no_grad():
        val_loss = accumulate(model, *val, args.micro, False)
    train_seconds = time.time() - started
    print(f"done: {step} steps, train loss {loss:.4f}, held-out loss {val_loss:.4f}, {train_seconds:.0f}s", flush=True)
    export(model, args.out, {"params": params, "trainLoss": loss, "heldOutLoss": val_loss,
                             "trainSeconds": round(train_seconds), "steps": step, "seq": args.seq, "init": args.init})
    sample = [{"role": "system", "content": "You are Mira. A retired sea captain who keeps the lighthouse on the cliffs.\n"
               "Personality: gruff, kind\nScenario: A storm has driven Sam to the lighthouse door.\n"
               "You are talking with Sam."},
              {"role": "assistant", "content": "*Mira opens the door a crack.* Who's out there in this weather?"},
              {"role": "user", "content": "Hello! Can I come in?"}]
    print("greedy sample (compare with smoke.ts):", greedy_reply(model, sample), flush=True)


if __name__ == "__main__":
    main()
