#!/usr/bin/env python3
"""Draw the hand-judged sample for the proof dependency graph (standard library only).

Usage:
  python3 sample.py sample  BOOK          # print the drawn statements as JSON skeletons
  python3 sample.py context BOOK N        # print statement N of the sample with its proof(s)
                                          # and every reference in it resolved to its
                                          # enclosing environment (a reading aid for judging)

BOOK is `lebl-basic-analysis` or `ernst-intro-to-proof`. The data folder defaults to
/work/shared/data/latex-wild (override with LATEX_WILD=...).

Nothing from the books is written by this script; `context` prints to the terminal only.
"""
import json
import os
import random
import re
import sys

DATA = os.environ.get("LATEX_WILD", "/work/shared/data/latex-wild")
SEED = 20240917
N = 30

BOOKS = {
    "lebl-basic-analysis": {
        "root": "realanal12.tex",  # volumes I and II together: every chapter
        "statements": ["thm", "lemma", "prop", "cor"],
        "definitions": ["defn"],
        # every \newtheorem of the book (numbered environments that can carry labels)
        "numbered": ["thm", "lemma", "prop", "cor", "defn", "remark", "example", "exercise"],
    },
    "ernst-intro-to-proof": {
        # Several course versions sit side by side; Fall2023 is one of the six roots that
        # include all 48 files / 15 chapters (tie broken by taking the newest version).
        "root": "Fall2023/IntroToProof.tex",
        "statements": ["theorem", "lemma", "proposition", "corollary"],
        "definitions": ["definition"],
        "numbered": ["theorem", "acknowledgement", "algorithm", "axiom", "case", "claim",
                     "conclusion", "condition", "conjecture", "corollary", "criterion",
                     "definition", "example", "exercise", "journal", "lemma", "notation",
                     "problem", "proposition", "remark", "solution", "summary", "skeleton",
                     "activity", "intuitivedef", "question", "fieldaxioms", "axioms",
                     "orderaxioms", "completenessaxiom", "additionalaxioms"],
    },
}

INPUT_RE = re.compile(r"\\(?:input|include\*?|subimport\*?\{[^}]*\})\{([^}]*)\}")
ENV_RE = re.compile(r"\\(begin|end)\{([a-zA-Z*]+)\}")
LABEL_RE = re.compile(r"\\label\{([^}]*)\}")
SECTION_RE = re.compile(r"\\(part|chapter|section|subsection|subsubsection)\*?[\[{]")
REF_RE = re.compile(r"\\([a-zA-Z]*ref|hyperlink)\*?(?:\{([^}]*)\}|\[([^\]]*)\])")


def strip_comment(line):
    out = []
    i = 0
    while i < len(line):
        c = line[i]
        if c == "\\" and i + 1 < len(line):
            out.append(line[i:i + 2])
            i += 2
            continue
        if c == "%":
            break
        out.append(c)
        i += 1
    return "".join(out)


def load(book):
    """Files of the book in root order; each as (relpath, [comment-stripped lines])."""
    cfg = BOOKS[book]
    base = os.path.join(DATA, book)
    rootdir = os.path.dirname(cfg["root"])
    files, seen = [], set()

    def visit(rel):
        if rel in seen:
            return
        seen.add(rel)
        path = os.path.join(base, rel)
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = [strip_comment(l.rstrip("\n")) for l in f]
        files.append((rel, lines))
        for l in lines:
            for m in INPUT_RE.finditer(l):
                name = m.group(1).strip()
                if not name.endswith(".tex"):
                    name += ".tex"
                child = os.path.join(rootdir, name)
                if os.path.exists(os.path.join(base, child)):
                    visit(child)

    visit(cfg["root"])
    return files


def environments(files, names):
    """All environments whose name is in `names`: dicts with file, begin/end line, label."""
    envs = []
    for rel, lines in files:
        stack = []
        for ln, l in enumerate(lines, 1):
            for m in ENV_RE.finditer(l):
                kind, name = m.groups()
                if kind == "begin":
                    stack.append((name, ln, m.end()))
                else:
                    for k in range(len(stack) - 1, -1, -1):
                        if stack[k][0] == name:
                            bname, bln, bcol = stack[k]
                            del stack[k:]
                            if name in names:
                                envs.append({"file": rel, "env": name, "begin": bln,
                                             "end": ln})
                            break
    for e in envs:
        e["label"] = first_label(files, e)
    envs.sort(key=lambda e: (order(files, e["file"]), e["begin"]))
    return envs


def order(files, rel):
    return [f for f, _ in files].index(rel)


def body(files, e):
    lines = dict(files)[e["file"]]
    return lines[e["begin"] - 1:e["end"]]


def first_label(files, e):
    for l in body(files, e):
        m = LABEL_RE.search(l)
        if m:
            return m.group(1)
    return None


def attach_proofs(files, stmts, others, proofs):
    """A statement has a proof when a proof environment follows it before the next
    numbered environment or sectioning command, or when a proof environment elsewhere is
    titled `Proof of <ref to its label>`."""
    starts = {}
    for e in others:
        starts.setdefault(e["file"], []).append(e["begin"])
    for s in stmts:
        s["proofs"] = []
        lines = dict(files)[s["file"]]
        nxt = [b for b in starts.get(s["file"], []) if b > s["end"]]
        limit = min(nxt) if nxt else len(lines) + 1
        for ln in range(s["end"] + 1, limit):
            if SECTION_RE.search(lines[ln - 1]):
                limit = ln
                break
        for p in proofs:
            if p["file"] == s["file"] and s["end"] <= p["begin"] < limit:
                s["proofs"].append(p)
                break
    by_label = {s["label"]: s for s in stmts if s["label"]}
    for p in proofs:
        head = dict(files)[p["file"]][p["begin"] - 1]
        m = re.search(r"\\begin\{proof\}\[([^\]]*)\]", head)
        if m:
            for r in REF_RE.finditer(m.group(1)):
                s = by_label.get(r.group(2) or r.group(3))
                if s and p not in s["proofs"]:
                    s["proofs"].append(p)


def draw(book):
    cfg = BOOKS[book]
    files = load(book)
    stmts = environments(files, set(cfg["statements"]))
    numbered = environments(files, set(cfg["numbered"]))
    proofs = environments(files, {"proof"})
    attach_proofs(files, stmts, numbered, proofs)
    with_proof = [s for s in stmts if s["proofs"]]
    without = [s for s in stmts if not s["proofs"]]
    rng = random.Random(SEED)
    if len(with_proof) >= N:
        sample = rng.sample(with_proof, N)
    else:
        # Too few proved statements (Ernst's inquiry-based book leaves nearly every
        # theorem to the reader): take all proved ones, fill up with a seeded draw of the
        # unproved ones.
        sample = list(with_proof) + rng.sample(without, N - len(with_proof))
    sample.sort(key=lambda e: (order(files, e["file"]), e["begin"]))
    return files, stmts, with_proof, sample


def label_index(book, files):
    """label -> (file, line, innermost numbered env or None, innermost other env, section?)"""
    cfg = BOOKS[book]
    idx = {}
    for rel, lines in files:
        stack = []
        for ln, l in enumerate(lines, 1):
            events = [(m.start(), "env", m) for m in ENV_RE.finditer(l)]
            events += [(m.start(), "label", m) for m in LABEL_RE.finditer(l)]
            events += [(m.start(), "item", m) for m in re.finditer(r"\\item\b", l)]
            events.sort(key=lambda t: t[0])
            sec = SECTION_RE.search(l)
            for _, kind, m in events:
                if kind == "env":
                    b, name = m.groups()
                    if b == "begin":
                        stack.append([name, ln, False])
                    else:
                        for k in range(len(stack) - 1, -1, -1):
                            if stack[k][0] == name:
                                del stack[k:]
                                break
                elif kind == "item":
                    for fr in reversed(stack):
                        if fr[0] in ("enumerate", "itemize", "description"):
                            fr[2] = True
                            break
                else:
                    lab = m.group(1)
                    numbered = [fr for fr in stack if fr[0] in cfg["numbered"]]
                    inner = stack[-1] if stack else None
                    idx[lab] = {
                        "file": rel, "line": ln,
                        "numbered": (numbered[-1][0], numbered[-1][1]) if numbered else None,
                        "in_proof": any(fr[0] == "proof" for fr in stack),
                        "inner": inner[0] if inner else None,
                        "item": bool(inner and inner[0] in ("enumerate", "itemize") and inner[2]),
                        "sectioning": bool(sec) and not stack,
                    }
    return idx


def context(book, n):
    files, stmts, with_proof, sample = draw(book)
    idx = label_index(book, files)
    s = sample[n]
    envs = {(e["file"], e["begin"]): e for e in
            environments(files, set(BOOKS[book]["numbered"]))}
    print(f"#{n} {s['env']} {s['file']}:{s['begin']}-{s['end']} label={s['label']}")
    parts = [("statement", s)] + [("proof", p) for p in s["proofs"]]
    for where, e in parts:
        print(f"--- {where} {e['file']}:{e['begin']}-{e['end']}")
        for i, l in enumerate(body(files, e), e["begin"]):
            print(f"{i:5d} {l}")
        for i, l in enumerate(body(files, e), e["begin"]):
            for m in REF_RE.finditer(l):
                if m.group(1) in ("href",):
                    continue
                for lab in (m.group(2) or m.group(3)).split(","):
                    lab = lab.strip()
                    t = idx.get(lab)
                    if not t:
                        print(f"  REF {where} line {i} \\{m.group(1)}{{{lab}}} -> UNDEFINED")
                        continue
                    tgt = ""
                    if t["numbered"]:
                        te = envs.get((t["file"], t["numbered"][1]))
                        tgt = f"{t['numbered'][0]}@{t['file']}:{t['numbered'][1]} first-label={te['label'] if te else '?'}"
                    print(f"  REF {where} line {i} \\{m.group(1)}{{{lab}}} -> {t['file']}:{t['line']} "
                          f"inner={t['inner']} item={t['item']} in_proof={t['in_proof']} sect={t['sectioning']} {tgt}")


def main():
    cmd, book = sys.argv[1], sys.argv[2]
    if cmd == "sample":
        files, stmts, with_proof, sample = draw(book)
        print(json.dumps({"book": book, "root": BOOKS[book]["root"], "seed": SEED,
                          "population": len(stmts), "withProof": len(with_proof),
                          "statements": [{"label": s["label"], "file": s["file"],
                                          "line": s["begin"], "env": s["env"],
                                          "hasProof": bool(s["proofs"]),
                                          "proofs": [f"{p['file']}:{p['begin']}" for p in s["proofs"]]}
                                         for s in sample]}, indent=1))
    elif cmd == "context":
        context(book, int(sys.argv[3]))


if __name__ == "__main__":
    main()
