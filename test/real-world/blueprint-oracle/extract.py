#!/usr/bin/python3
"""The `\\uses` edges plastexdepgraph would draw for a Lean blueprint, read independently of
MathSense's TypeScript (a second implementation, standard library only).

Rules (plastexdepgraph, leanblueprint): nodes are the theorem-like environments (declared with
\\newtheorem or \\declaretheorem in the blueprint's own files) that carry a \\label; `\\uses{a,b}`
inside a statement gives edges statement -> a, b ("statement"); inside a proof, from the statement
the proof belongs to ("proof"): the one `\\proves{x}` names, else the theorem-like environment
just before the proof. Only files the root reads through \\input/\\include count; comments are
dropped. A `\\uses` key no node carries is listed as unresolved.

    /usr/bin/python3 extract.py <blueprint folder> <root relative to it> > <name>.json
"""
import json, os, re, sys

def strip_comments(text):
    return re.sub(r'(?<!\\)%.*', '', text)

def read_tree(folder, root):
    """The root and what it inputs, in reading order, comments dropped; also every .tex/.sty for declarations."""
    out, seen = [], set()
    def visit(path):
        path = os.path.normpath(path)
        if path in seen or not os.path.exists(path):
            return
        seen.add(path)
        text = strip_comments(open(path, encoding='utf-8', errors='replace').read())
        pos = 0
        for m in re.finditer(r'\\(?:input|include)\s*\{([^{}]+)\}', text):
            out.append(text[pos:m.start()])
            name = m.group(1).strip()
            base = os.path.dirname(path)
            cand = [os.path.join(base, name), os.path.join(base, name + '.tex'), os.path.join(os.path.dirname(os.path.join(folder, root)), name), os.path.join(os.path.dirname(os.path.join(folder, root)), name + '.tex')]
            for c in cand:
                if os.path.isfile(c):
                    visit(c)
                    break
            pos = m.end()
        out.append(text[pos:])
    visit(os.path.join(folder, root))
    return ''.join(out)

def theorem_names(folder):
    names = {'theorem', 'lemma', 'proposition', 'corollary', 'definition'}
    for dirpath, _, files in os.walk(folder):
        for f in files:
            if f.endswith(('.tex', '.sty')):
                t = strip_comments(open(os.path.join(dirpath, f), encoding='utf-8', errors='replace').read())
                names.update(re.findall(r'\\newtheorem\*?\s*\{([^{}]+)\}', t))
                names.update(re.findall(r'\\declaretheorem(?:\[[^\]]*\])?\s*\{([^{}]+)\}', t))
    return names

def main(folder, root):
    text = read_tree(folder, root)
    thm = theorem_names(folder)
    # environments in order, with their extents
    envs, stack = [], []
    for m in re.finditer(r'\\(begin|end)\s*\{([^{}]+)\}', text):
        if m.group(1) == 'begin':
            stack.append((m.group(2), m.end(), len(envs)))
            envs.append(None)
        else:
            while stack:
                name, start, i = stack.pop()
                envs[i] = (name, start, m.start())
                if name == m.group(2):
                    break
    envs = [e for e in envs if e]
    envs.sort(key=lambda e: e[1])
    nodes, order = {}, []
    for name, start, end in envs:
        if name in thm:
            body = text[start:end]
            # own text only: nested theorem-like environments and proofs are theirs
            labels = re.findall(r'\\label\s*\{([^{}]+)\}', body)
            if labels:
                nodes[labels[0].strip()] = True
                order.append(('stmt', labels[0].strip(), start, end))
        elif name == 'proof':
            order.append(('proof', None, start, end))
    edges, unresolved = set(), []
    labels_all = set(nodes)
    last_stmt = None
    status = {'statementDone': 0, 'proofDone': 0, 'mathlib': 0, 'notReady': 0}
    proof_done = set()
    for kind, label, start, end in sorted(order, key=lambda o: o[2]):
        body = text[start:end]
        # text of inner environments of the same kinds is theirs
        inner = [(s, e) for k, _, s, e in order if s > start and e < end]
        own = ''.join(ch if not any(s <= i + start < e for s, e in inner) else ' ' for i, ch in enumerate(body)) if inner else body
        if kind == 'stmt':
            last_stmt = label
            src, where = label, 'statement'
            if re.search(r'\\leanok\b', own): status['statementDone'] += 1
            if re.search(r'\\mathlibok\b', own): status['mathlib'] += 1
            if re.search(r'\\notready\b', own): status['notReady'] += 1
        else:
            pr = re.search(r'\\proves\s*\{([^{}]+)\}', own)
            src = pr.group(1).strip() if pr else last_stmt
            where = 'proof'
            if src is None:
                continue
            if src not in labels_all:
                # \proves of a key no node carries: plastexdepgraph attaches the proof to nothing
                unresolved.append([src, '(\\proves)', 'proof'])
                continue
            if re.search(r'\\leanok\b', own): proof_done.add(src)
        for m in re.finditer(r'\\uses\s*\{([^{}]*)\}', own):
            for key in [k.strip() for k in m.group(1).split(',') if k.strip()]:
                if key in labels_all:
                    edges.add((src, key, where))
                else:
                    unresolved.append([src, key, where])
    status['proofDone'] = len(proof_done & labels_all)
    return {'root': root, 'nodes': len(nodes), 'edges': sorted(list(e) for e in edges), 'unresolved': unresolved, 'status': status}

if __name__ == '__main__':
    folder, root = sys.argv[1], sys.argv[2]
    out = main(folder, root)
    out = {'blueprint': os.path.basename(os.path.normpath(folder)), **out}
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write('\n')
