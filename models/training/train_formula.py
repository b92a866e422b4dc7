#!/usr/bin/python3
"""Trains the MathSense formula encoder from scratch and exports it to ONNX.

Input: token-id clusters written by scripts/export-formula-data.mjs (canonical formula texts,
tokenized by the TypeScript tokenizer; nothing here splits text). Each cluster is a group of
formulas that are equal (rewrite clusters: a seed and its verified rewrites) or share a context
(display equations of one proof/section/page); each member has one or more variants (printing
styles, side-reversed text), one drawn per use. Loss: multi-positive InfoNCE (supervised
contrastive) with in-batch negatives, several members per cluster, fixed temperature. The
architecture is the text encoder's (Encoder from train.py): 2 layers, d = 128, mean pooling,
L2-normalised output, same ONNX input/output names. CUDA when present, else CPU (2 threads).

    /usr/bin/python3 models/training/train_formula.py --data .cache/train-formula --out models/formula-encoder
"""
import argparse
import json
import os
import random
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import Encoder, WEIGHTS, export_onnx, pad, start_run, write_reference  # noqa: E402  (the text encoder's architecture, padding, set-up and export)

# share of each batch drawn from each kind of cluster
MIX = {"synthetic": 0.45, "real": 0.35, "context": 0.20}


def kind(source):
    return source.split("-")[0]


def load_clusters(path):
    train, val = {}, {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            rec = {"s": r["s"], "c": r["c"]}
            (val if r["v"] else train).setdefault(kind(r["s"]), []).append(rec)
    return train, val


class Sampler:
    """Clusters of one kind in a shuffled cycle (a new shuffle each pass)."""

    def __init__(self, rows, rng):
        self.rows, self.rng, self.pos, self.passes = list(rows), rng, len(rows), 0

    def next(self):
        if self.pos >= len(self.rows):
            self.rng.shuffle(self.rows)
            self.pos, self.passes = 0, self.passes + 1
        self.pos += 1
        return self.rows[self.pos - 1]


def make_batch(samplers, mix, n_clusters, per_cluster, max_len, rng):
    """n_clusters clusters (kinds drawn by `mix`), up to per_cluster members each, one variant each."""
    kinds = [k for k in mix if k in samplers]
    weights = [mix[k] for k in kinds]
    seqs, labels = [], []
    for ci in range(n_clusters):
        cl = samplers[rng.choices(kinds, weights)[0]].next()
        members = rng.sample(cl["c"], min(per_cluster, len(cl["c"])))
        for m in members:
            seqs.append(rng.choice(m)[:max_len])
            labels.append(ci)
    return seqs, labels


def supcon_loss(z, labels, seqs, temperature):
    """Multi-positive InfoNCE: every other member of the anchor's cluster is a positive; identical
    token sequences from different clusters are neither positives nor negatives."""
    n = z.shape[0]
    dev = z.device
    lab = torch.tensor(labels, device=dev)
    keys = [hash(tuple(s)) for s in seqs]
    same_text = torch.tensor([[keys[i] == keys[j] for j in range(n)] for i in range(n)], device=dev)
    eye = torch.eye(n, dtype=torch.bool, device=dev)
    pos = (lab[:, None] == lab[None, :]) & ~eye
    excluded = eye | (same_text & ~pos)
    logits = (z @ z.t() / temperature).masked_fill(excluded, -1e4)
    logp = logits - torch.logsumexp(logits, dim=1, keepdim=True)
    npos = pos.sum(1)
    has = npos > 0
    loss = -(logp * pos).sum(1)[has] / npos[has]
    return loss.mean()


@torch.no_grad()
def embed_all(model, seqs, device, max_len, bs=256):
    out = []
    for i in range(0, len(seqs), bs):
        ids, mask = pad([s[:max_len] for s in seqs[i: i + bs]], device)
        out.append(model(ids, mask))
    return torch.cat(out) if out else torch.zeros(0, 1)


@torch.no_grad()
def recall(model, clusters, device, max_len, limit=None):
    """member -> another member of its cluster, among all members of the given clusters (first variants):
    recall@1 / @5 and MRR of the first same-cluster member."""
    clusters = clusters[:limit] if limit else clusters
    seqs, labels = [], []
    for ci, cl in enumerate(clusters):
        for m in cl["c"]:
            seqs.append(m[0][:max_len])
            labels.append(ci)
    if len(seqs) < 2:
        return None
    was = model.training
    model.eval()
    z = embed_all(model, seqs, device, max_len)
    model.train(was)
    lab = torch.tensor(labels, device=z.device)
    ranks = []
    # in chunks of queries: the full similarity matrix of a large pool does not fit in memory
    for i in range(0, len(seqs), 1024):
        sim = z[i: i + 1024] @ z.t()
        idx = torch.arange(i, i + sim.shape[0], device=z.device)
        sim[torch.arange(sim.shape[0]), idx] = -2.0  # the query itself
        pos = lab[None, :] == lab[idx][:, None]
        pos[torch.arange(sim.shape[0]), idx] = False
        best = sim.masked_fill(~pos, -3.0).max(1).values
        # rank of the best same-cluster member: how many others score higher
        ranks.append(torch.where(pos.any(1), (sim > best[:, None]).sum(1), torch.full_like(best, 10**9, dtype=torch.long)))
    rank = torch.cat(ranks).float()
    r1 = (rank < 1).float().mean().item()
    r5 = (rank < 5).float().mean().item()
    mrr = (1.0 / (rank + 1)).mean().item()
    return {"queries": len(seqs), "clusters": len(clusters), "recall@1": round(100 * r1, 1), "recall@5": round(100 * r5, 1), "mrr": round(100 * mrr, 1)}


def evaluate(model, val, device, max_len, limit=None):
    out = {}
    for k in sorted(val):
        r = recall(model, val[k], device, max_len, limit)
        if r:
            out[k] = r
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=".cache/train-formula")
    ap.add_argument("--out", default="models/formula-encoder")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--clusters", type=int, default=48, help="clusters per batch")
    ap.add_argument("--per-cluster", type=int, default=3, help="members drawn per cluster (positives of each other)")
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--temperature", type=float, default=0.05)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--max-len", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--log-every", type=int, default=25)
    ap.add_argument("--eval-every", type=int, default=500)
    ap.add_argument("--no-export", action="store_true", help="throughput runs: train only")
    args = ap.parse_args()

    device, meta = start_run(args)
    train, val = load_clusters(os.path.join(args.data, "clusters.jsonl"))
    rng = random.Random(args.seed)
    samplers = {k: Sampler(v, rng) for k, v in train.items()}
    model = Encoder(meta["vocabSize"], d=args.d, layers=args.layers, ff=4 * args.d, out=args.d, max_len=args.max_len).to(device)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"device {device}, {n_params/1e6:.2f}M parameters, train clusters { {k: len(v) for k, v in train.items()} }, "
          f"validation clusters { {k: len(v) for k, v in val.items()} }", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warm = max(1, args.steps // 20)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) * max(0.02, 1 - s / args.steps))

    t0 = time.time()
    model.train()
    running = 0.0
    history = []
    for step in range(args.steps):
        seqs, labels = make_batch(samplers, MIX, args.clusters, args.per_cluster, args.max_len, rng)
        z = model(*pad(seqs, device))
        loss = supcon_loss(z, labels, seqs, args.temperature)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        running = 0.9 * running + 0.1 * loss.item() if step else loss.item()
        if step % args.log_every == 0 or step == args.steps - 1:
            el = time.time() - t0
            passes = {k: s.passes for k, s in samplers.items()}
            print(f"step {step+1}/{args.steps} loss {running:.3f} passes {passes} {el:.0f}s ({(step+1)/el:.2f} steps/s)", flush=True)
        if args.eval_every and (step + 1) % args.eval_every == 0 and step + 1 < args.steps:
            m = evaluate(model, val, device, args.max_len, limit=300)
            history.append({"step": step + 1, **m})
            print(f"validation (300 clusters per kind) at step {step+1}: {json.dumps(m)}", flush=True)

    train_seconds = time.time() - t0
    model.eval()
    metrics = evaluate(model, val, device, args.max_len)
    print(f"validation: {json.dumps(metrics)}", flush=True)
    if args.no_export:
        return
    os.makedirs(args.out, exist_ok=True)
    model.cpu()
    export(model, args, meta, train_seconds, n_params, device.type, metrics, history, {k: len(v) for k, v in train.items()}, {k: len(v) for k, v in val.items()})


def export(model, args, meta, train_seconds, n_params, device, metrics, history, n_train, n_val):
    onnx_path = export_onnx(model, args.out)
    write_reference(model, args.data, args.out, args.max_len)
    info = {"weights": WEIGHTS, "steps": args.steps, "clustersPerBatch": args.clusters, "membersPerCluster": args.per_cluster, "mix": MIX, "lr": args.lr,
            "temperature": args.temperature, "layers": args.layers, "d": args.d, "dim": args.d, "maxTokens": args.max_len, "seed": args.seed,
            "device": device, "trainSeconds": round(train_seconds), "parameters": n_params, "trainClusters": n_train, "validationClusters": n_val,
            "exported": meta["counts"], "exportedMembers": meta["members"], "dropped": meta["dropped"], "validation": metrics, "history": history}
    json.dump(info, open(os.path.join(args.out, "training.json"), "w"), indent=1)
    print(f"exported {onnx_path} ({os.path.getsize(onnx_path)/1e6:.1f} MB), trained {train_seconds:.0f}s", flush=True)


if __name__ == "__main__":
    main()
