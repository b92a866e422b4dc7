#!/usr/bin/python3
"""Trains the MathSense text encoder from scratch and exports it to ONNX.

Input: token ids written by scripts/export-training-data.mjs (the TypeScript tokenizer is the
only tokenizer; nothing here splits text). Contrastive training with in-batch negatives
(symmetric InfoNCE) on statement<->proof, statement<->reference/premise and
definition<->title pairs; with probability --rename-p the statement side is replaced by its
symbol-renamed variant. A pair may carry a hard negative (`n`: a candidate lexically close to
the query that it does not cite, or another title sharing a MathD2 term); the batch's hard
negatives join its candidates as extra columns of the query->candidate loss. Uses CUDA when present, else CPU with 2 threads.

    /usr/bin/python3 models/training/train.py --data .cache/train --out models/mathsense-encoder

The defaults are the shipped model's run (b67a2e6d040f: 4 layers, d = 192, 128 tokens a side,
batch 256, 5,235 steps; 318 s on one H100). `--layers 2 --d 128 --batch 64 --max-len-a 64
--max-len-b 64 --steps 3500` is the earlier CPU-sized model (d585d939eed1, 76 min on 2 cores).
"""
import argparse
import inspect
import json
import math
import os
import random
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from quantize import WEIGHTS, quantize_file


class Encoder(nn.Module):
    """Factorised embeddings (vocab x 128 -> d) keep the file small; mean pooling; L2 norm."""

    def __init__(self, vocab, emb=128, d=128, layers=2, heads=4, ff=512, max_len=128, out=128, dropout=0.1):
        super().__init__()
        self.tok = nn.Embedding(vocab, emb, padding_idx=0)
        self.proj = nn.Linear(emb, d)
        self.pos = nn.Embedding(max_len, d)
        self.norm = nn.LayerNorm(d)
        layer = nn.TransformerEncoderLayer(d, heads, ff, dropout, batch_first=True, norm_first=True, activation="gelu")
        self.enc = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.final = nn.LayerNorm(d)
        self.head = nn.Linear(d, out)
        self.drop = nn.Dropout(dropout)

    def forward(self, input_ids, attention_mask):
        t = input_ids.shape[1]
        pos = torch.arange(t, device=input_ids.device).unsqueeze(0)
        x = self.drop(self.norm(self.proj(self.tok(input_ids)) + self.pos(pos)))
        x = self.enc(x, src_key_padding_mask=attention_mask == 0)
        x = self.final(x)
        m = attention_mask.unsqueeze(-1).to(x.dtype)
        pooled = (x * m).sum(1) / m.sum(1).clamp(min=1.0)
        return F.normalize(self.head(pooled), dim=-1)


def load_pairs(path, caps):
    by_src = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            by_src.setdefault(r["s"], []).append(r)
    return by_src


def epoch_batches(by_src, caps, rng, batch, mixed):
    """One pass in batches: every pair of each source, sources with a cap subsampled to it
    (balance). Each batch holds pairs of one source (unless `mixed`): a Stacks proof is no
    test for a ProofWiki statement, so in mixed batches most negatives are won by vocabulary
    alone; within a source every other pair of the batch is a negative worth separating."""
    per_src = []
    for s, rows in sorted(by_src.items()):
        rows = list(rows)
        rng.shuffle(rows)
        per_src.append(rows[: caps.get(s, len(rows))])
    if mixed:
        items = [r for rows in per_src for r in rows]
        rng.shuffle(items)
        return [items[i: i + batch] for i in range(0, len(items) - batch + 1, batch)]
    batches = [rows[i: i + batch] for rows in per_src for i in range(0, len(rows) - batch + 1, batch)]
    rng.shuffle(batches)
    return batches


def pad(seqs, device):
    t = max(len(s) for s in seqs)
    ids = torch.zeros(len(seqs), t, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, : len(s)] = torch.tensor(s, dtype=torch.long)
    return ids.to(device), (ids != 0).long().to(device)


def start_run(args):
    """Seeds, the device (CUDA when present, else CPU with --threads) and the exported meta.json."""
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cpu":
        torch.set_num_threads(args.threads)
    else:
        # TF32 matrix products: the small encoder is latency-bound on a GPU, full fp32 buys nothing
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = True
    return device, json.load(open(os.path.join(args.data, "meta.json")))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=".cache/train")
    ap.add_argument("--out", default="models/mathsense-encoder")
    ap.add_argument("--steps", type=int, default=5235)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d", type=int, default=192)
    ap.add_argument("--max-len", type=int, default=128, help="positions in the model")
    ap.add_argument("--max-len-a", type=int, default=128, help="statement side truncation")
    ap.add_argument("--max-len-b", type=int, default=128, help="proof/reference side truncation")
    ap.add_argument("--rename-p", type=float, default=0.5)
    ap.add_argument("--mixed-batches", action="store_true", help="batches mix the sources (models up to 0e0b95f6fec2)")
    ap.add_argument("--no-hard-negatives", action="store_true", help="ignore exported hard negatives (models up to 68d365fd6024)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--log-every", type=int, default=25)
    ap.add_argument("--seconds", type=float, default=0,
                    help="fit the run into this many seconds: the step count is set from the speed of steps 10-40 (at most --steps)")
    ap.add_argument("--export-from", default="", help="skip training: export the weights saved in this state.pt (its args with it)")
    ap.add_argument("--init", default="", help="start from the weights in this state.pt (same architecture) instead of random ones")
    args = ap.parse_args()

    device, meta = start_run(args)
    if args.export_from:
        export_saved(args, meta)
        return
    caps = {"stacks-ref": 9000}
    by_src = load_pairs(os.path.join(args.data, "pairs.jsonl"), caps)
    model = Encoder(meta["vocabSize"], d=args.d, layers=args.layers, ff=4 * args.d, out=args.d, max_len=args.max_len).to(device)
    if args.init:
        first = torch.load(args.init, map_location=device)
        model.load_state_dict(first["state"])
        # what the starting weights cost, for training.json
        args.init_run = {k: first["args"][k] for k in ("steps", "batch", "lr", "seed") if k in first["args"]}
        args.init_run.update(seconds=round(first["trainSeconds"]), device=first["device"], init=first["args"].get("init_run"))
    n_params = sum(p.numel() for p in model.parameters())
    print(f"device {device}, {n_params/1e6:.2f}M parameters, sources { {s: len(r) for s, r in by_src.items()} }", flush=True)
    logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.05), device=device))
    opt = torch.optim.AdamW(list(model.parameters()) + [logit_scale], lr=args.lr, weight_decay=0.01)
    warm = max(1, args.steps // 20)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) * max(0.02, 1 - s / args.steps))

    rng = random.Random(args.seed)
    batches, pos, t0, epoch = [], 0, time.time(), 0
    model.train()
    running = 0.0
    step = 0
    while step < args.steps:
        if args.seconds and step == 10:
            t10 = time.time()  # the first steps pay for start-up (allocator, kernels): not timed
        if args.seconds and step == 40:
            # still in warm-up here; from now on the schedule decays to the fitted step count
            now = time.time()
            left = args.seconds - (now - t0)
            args.steps = max(41, min(args.steps, 40 + int(left * 30 / (now - t10))))
            warm = max(1, args.steps // 20)
            print(f"--seconds {args.seconds:.0f}: {args.steps} steps", flush=True)
        if pos >= len(batches):
            batches, pos, epoch = epoch_batches(by_src, caps, rng, args.batch, args.mixed_batches), 0, epoch + 1
        batch = batches[pos]
        pos += 1
        a = [(r["r"] if "r" in r and rng.random() < args.rename_p else r["a"])[: args.max_len_a] for r in batch]
        b = [r["b"][: args.max_len_b] for r in batch]
        ea = model(*pad(a, device))
        eb = model(*pad(b, device))
        scale = logit_scale.exp().clamp(max=100)
        logits = scale * ea @ eb.t()
        # the same statement (or candidate) twice in a batch is not a negative of itself
        # (compared as tensors: the Python double loop cost a fifth of a GPU step at batch 256)
        ka = torch.tensor([hash(tuple(r["a"])) for r in batch], device=device)
        kb = torch.tensor([hash(tuple(x)) for x in b], device=device)
        same_a = ka[:, None] == ka[None, :]
        same = (same_a | (kb[:, None] == kb[None, :])) & ~torch.eye(len(batch), dtype=torch.bool, device=device)
        logits = logits.masked_fill(same, -1e4)
        target = torch.arange(len(batch), device=device)
        negs = [] if args.no_hard_negatives else [r["n"][: args.max_len_b] for r in batch if "n" in r]
        if negs:
            # a hard negative that is an answer of some query in the batch is masked for that query
            # answer of query i <=> some pair k of the batch has query i's statement and that candidate
            kn = torch.tensor([hash(tuple(x)) for x in negs], device=device)
            is_answer = (same_a.float() @ (kb[:, None] == kn[None, :]).float()) > 0
            hard = (scale * ea @ model(*pad(negs, device)).t()).masked_fill(is_answer, -1e4)
            rows = torch.cat([logits, hard], 1)
        else:
            rows = logits
        loss = (F.cross_entropy(rows, target) + F.cross_entropy(logits.t(), target)) / 2
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        running = 0.9 * running + 0.1 * loss.item() if step else loss.item()
        if step % args.log_every == 0 or step == args.steps - 1:
            el = time.time() - t0
            print(f"step {step+1}/{args.steps} epoch {epoch} loss {running:.3f} temp {1/logit_scale.exp().item():.4f} "
                  f"{el:.0f}s ({(step+1)/el:.2f} steps/s)", flush=True)
        step += 1

    train_seconds = time.time() - t0
    os.makedirs(args.out, exist_ok=True)
    model.eval().cpu()
    # the weights and the run's settings, so the ONNX export can be redone elsewhere (--export-from)
    gpu = torch.cuda.get_device_name(0) if device.type == "cuda" else None
    torch.save({"state": model.state_dict(), "args": vars(args), "trainSeconds": train_seconds, "device": device.type,
                "gpu": gpu, "torch": torch.__version__}, os.path.join(args.out, "state.pt"))
    args.gpu, args.torch = gpu, torch.__version__
    export(model, args, meta, train_seconds, n_params, device.type)


def export_saved(args, meta):
    saved = torch.load(args.export_from, map_location="cpu")
    run = argparse.Namespace(**{**saved["args"], "out": args.out, "data": args.data, "gpu": saved.get("gpu"), "torch": saved.get("torch")})
    model = Encoder(meta["vocabSize"], d=run.d, layers=run.layers, ff=4 * run.d, out=run.d, max_len=run.max_len)
    model.load_state_dict(saved["state"])
    model.eval()
    os.makedirs(args.out, exist_ok=True)
    n_params = sum(p.numel() for p in model.parameters())
    export(model, run, meta, saved["trainSeconds"], n_params, saved["device"])


def export_onnx(model, out_dir):
    """encoder.onnx with dynamic batch and length; the input/output names every MathSense
    encoder uses, so one loader (server/src/embeddings/encoderSession.ts) runs them all. The float
    export is kept beside it (encoder.float.onnx, not committed); the shipped file holds its
    weights in int8 (quantize.py)."""
    float_path = os.path.join(out_dir, "encoder.float.onnx")
    onnx_path = os.path.join(out_dir, "encoder.onnx")
    ids = torch.tensor([[5, 9, 12, 0]], dtype=torch.long)
    mask = torch.tensor([[1, 1, 1, 0]], dtype=torch.long)
    # export outside no_grad (torch 1.13 + TransformerEncoder); newer torch defaults to the dynamo
    # exporter (another graph, opset 18): keep the TorchScript one every shipped model came from
    legacy = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    torch.onnx.export(model, (ids, mask), float_path, opset_version=14, **legacy,
                      input_names=["input_ids", "attention_mask"], output_names=["embeddings"],
                      dynamic_axes={"input_ids": {0: "batch", 1: "tokens"}, "attention_mask": {0: "batch", 1: "tokens"},
                                    "embeddings": {0: "batch"}})
    quantize_file(float_path, onnx_path)
    return onnx_path


def write_reference(model, data_dir, out_dir, max_len):
    """reference.json for the Node test: token ids written by the exporter, embedded by torch."""
    ref_in = os.path.join(data_dir, "reference_inputs.json")
    refs = []
    if os.path.exists(ref_in):
        with torch.no_grad():
            for r in json.load(open(ref_in)):
                i, m = pad([r["ids"][: max_len]], "cpu")
                refs.append({"text": r["text"], "ids": r["ids"], "embedding": [round(v, 7) for v in model(i, m)[0].tolist()]})
    json.dump(refs, open(os.path.join(out_dir, "reference.json"), "w"))


def export(model, args, meta, train_seconds, n_params, device):
    onnx_path = export_onnx(model, args.out)
    write_reference(model, args.data, args.out, args.max_len)
    train_info = {"weights": WEIGHTS, "steps": args.steps, "batch": args.batch, "lr": args.lr, "layers": args.layers, "d": args.d, "dim": args.d, "maxTokens": max(args.max_len_a, args.max_len_b),
                  "renameP": args.rename_p, "batching": "mixed" if args.mixed_batches else "one source per batch",
                  "hardNegatives": 0 if args.no_hard_negatives else meta.get("negatives", 0), "mathd2CosineFitHeldOut": meta.get("mathd2CosineFitHeldOut", 0), "maxLenA": args.max_len_a, "maxLenB": args.max_len_b, "seed": args.seed, "device": device, "trainSeconds": round(train_seconds),
                  "parameters": n_params, "pairs": meta["counts"]}
    for k in ("gpu", "torch", "seconds"):
        if getattr(args, k, None):
            train_info[k] = getattr(args, k)
    if getattr(args, "init_run", None):
        train_info["startedFrom"] = args.init_run
    json.dump(train_info, open(os.path.join(args.out, "training.json"), "w"), indent=1)
    print(f"exported {onnx_path} ({os.path.getsize(onnx_path)/1e6:.1f} MB), trained {train_seconds:.0f}s", flush=True)


if __name__ == "__main__":
    main()
