#!/usr/bin/python3
r"""The dependency-graph edges plastexdepgraph (leanblueprint) would draw from `\uses`, for one Lean
blueprint, read independently of MathSense's TypeScript: a second implementation, Python 3
standard library only.  It follows plastexdepgraph's source (Packages/depgraph.py, unchanged in
its rules since 2024-01) and the plasTeX behaviour it relies on; README.md lists the rules.

    /usr/bin/python3 extract.py <blueprint folder> [root, default blueprint/src/web.tex] > <name>.json
    /usr/bin/python3 extract.py --explain <blueprint folder> [root]   # every \\uses item with file:line
    /usr/bin/python3 extract.py --sample <blueprint folder> [root]    # the hand check's sample

The scan is a small TeX reader: comments dropped, \input/\include followed (relative to the
root's folder, as plasTeX run from blueprint/src resolves them), verbatim skipped, and a stack
of containers (sections, environments, brace groups, list items) so that a command's
"parent" is the innermost container around it, which is where plasTeX's \uses, \proves,
\leanok... attach their data.
"""
import json
import os
import random
import re
import sys
from bisect import bisect_right

# plastexdepgraph's default `thms` option; none of the four blueprints passes `thms=`.
DEFAULT_TYPES = ['definition', 'lemma', 'proposition', 'theorem', 'corollary']
SECTION_LEVELS = {'part': -1, 'chapter': 0, 'section': 1, 'subsection': 2, 'subsubsection': 3,
                  'paragraph': 4, 'subparagraph': 5}
VERBATIM_ENVS = {'verbatim', 'Verbatim', 'lstlisting', 'minted', 'comment', 'verbatim*'}
LIST_ENVS = {'itemize', 'enumerate', 'description'}
# environments that step the equation counter, hence become plasTeX's "current label"
NUMBERED_MATH = {'equation', 'align', 'gather', 'multline', 'eqnarray', 'flalign', 'alignat'}


class Box:
    """A container: the document, a section, an environment, a brace group, a list item."""

    def __init__(self, kind, name, parent, file, line, level=None):
        self.kind, self.name, self.parent = kind, name, parent
        self.file, self.line, self.level = file, line, level
        self.children = []      # theorem-like environments and proofs directly inside, in order
        self.uses = None        # last \uses in it (plastexdepgraph: setUserData replaces)
        self.uses_count = 0
        self.proves = None      # last \proves label in it
        self.leanok = self.mathlibok = self.notready = False
        self.id = None          # last \label that made it the labelled object (plasTeX node.id)
        self.labels = []
        self.proved_by = None
        self.thm = False        # declared with \newtheorem
        self.numbered = False

    def where(self):
        return f'{self.file}:{self.line}'


class Reader:
    def __init__(self, src_dir):
        self.src_dir = src_dir
        self.doc = Box('document', '', None, '', 0, level=-10)
        self.stack = [self.doc]
        self.theorems = {}          # env name -> numbered?
        self.labels = {}            # label -> Box it names
        self.current = None         # plasTeX context.currentlabel
        self.all_envs = []          # theorem-like environments and proofs, document order
        self.uses = []              # (parent Box, [labels], file, line)
        self.files = []             # files read, in order
        self.notes = []
        self.anomalies = []
        self.misplaced = []         # \leanok etc. not directly in a statement or proof
        self.empty_items = []       # \uses{a,} : plastexdepgraph looks up '' and logs it unresolved

    # ---- input -----------------------------------------------------------------------------
    def read_file(self, rel):
        path = os.path.join(self.src_dir, rel)
        if not os.path.isfile(path) and os.path.isfile(path + '.tex'):
            path, rel = path + '.tex', rel + '.tex'
        if not os.path.isfile(path):
            self.anomalies.append(f'\\input{{{rel}}}: no such file')
            return
        self.files.append(os.path.normpath(rel))
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        self.scan(text, os.path.normpath(rel))

    # ---- low-level scanning helpers -----------------------------------------------------------
    @staticmethod
    def skip_comment(text, i):
        j = text.find('\n', i)
        return len(text) if j < 0 else j + 1

    def skip_ws(self, text, i, newlines=1):
        """Spaces before an argument; at most `newlines` line ends (a blank line ends it)."""
        n = len(text)
        while i < n:
            c = text[i]
            if c in ' \t':
                i += 1
            elif c == '\n' and newlines > 0:
                newlines -= 1
                i += 1
            elif c == '%':
                i = self.skip_comment(text, i)
            else:
                break
        return i

    def read_group(self, text, i, open_='{', close='}'):
        """text[i] == open_; returns (content without comments, index after the closing char)."""
        depth, out, j, n = 0, [], i, len(text)
        while j < n:
            c = text[j]
            if c == '\\':
                out.append(text[j:j + 2])
                j += 2
                continue
            if c == '%':
                j = self.skip_comment(text, j)
                continue
            if c == '{':
                depth += 1
            elif c == '}':
                depth -= 1
                if depth == 0 and close == '}':
                    out.append(c)
                    return ''.join(out)[1:-1], j + 1
            elif c == close and depth == 0:
                out.append(c)
                return ''.join(out)[1:-1], j + 1
            out.append(c)
            j += 1
        return ''.join(out)[1:], n

    def opt_arg(self, text, i):
        j = self.skip_ws(text, i)
        if j < len(text) and text[j] == '[':
            return self.read_group(text, j, '[', ']')
        return None, i

    def req_arg(self, text, i):
        j = self.skip_ws(text, i)
        if j < len(text) and text[j] == '{':
            return self.read_group(text, j)
        # a single token argument
        if j < len(text) and text[j] == '\\':
            m = re.match(r'\\([A-Za-z@]+|.)', text[j:])
            return m.group(0), j + len(m.group(0))
        return (text[j] if j < len(text) else ''), j + 1

    # ---- the scan ----------------------------------------------------------------------------
    def top(self):
        return self.stack[-1]

    def push(self, box):
        self.stack.append(box)

    def scan(self, text, file):
        nl = [k for k, c in enumerate(text) if c == '\n']

        def line(pos):
            return bisect_right(nl, pos - 1) + 1

        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c == '%':
                i = self.skip_comment(text, i)
                continue
            if c == '{':
                self.push(Box('group', '{', self.top(), file, line(i)))
                i += 1
                continue
            if c == '}':
                if self.top().kind in ('group', 'arg'):
                    self.stack.pop()
                else:
                    self.anomalies.append(f'{file}:{line(i)}: unmatched }} inside {self.top().kind} {self.top().name}')
                i += 1
                continue
            if c != '\\':
                i += 1
                continue
            m = re.match(r'\\([A-Za-z@]+\*?|.)', text[i:])
            if not m:
                i += 1
                continue
            cs = m.group(1)
            start, i = i, i + len(m.group(0))
            ln = line(start)
            star = cs.endswith('*') and len(cs) > 1
            if star:
                cs = cs[:-1]
            if cs in ('input', 'include'):
                arg, i = self.req_arg(text, i)
                self.read_file(arg.strip())
            elif cs == 'verb':
                delim = text[i] if i < n else ''
                j = text.find(delim, i + 1)
                i = n if j < 0 else j + 1
            elif cs in ('newcommand', 'renewcommand', 'providecommand', 'DeclareRobustCommand'):
                # a definition's body is not text of the document (no blueprint macro wraps \uses)
                _, i = self.req_arg(text, i)
                _, i = self.opt_arg(text, i)
                _, i = self.opt_arg(text, i)
                _, i = self.req_arg(text, i)
            elif cs in ('newenvironment', 'renewenvironment'):
                _, i = self.req_arg(text, i)
                _, i = self.opt_arg(text, i)
                _, i = self.opt_arg(text, i)
                _, i = self.req_arg(text, i)
                _, i = self.req_arg(text, i)
            elif cs in ('NewDocumentCommand', 'RenewDocumentCommand', 'DeclareDocumentCommand'):
                _, i = self.req_arg(text, i)
                _, i = self.req_arg(text, i)
                _, i = self.req_arg(text, i)
            elif cs == 'def':
                m2 = re.match(r'\\[A-Za-z@]+[^{]*', text[i:])
                i += len(m2.group(0)) if m2 else 0
                _, i = self.req_arg(text, i)
            elif cs == 'newtheorem':
                name, i = self.req_arg(text, i)
                _, i = self.opt_arg(text, i)
                _, i = self.req_arg(text, i)
                _, i = self.opt_arg(text, i)
                self.theorems[name.strip()] = not star
            elif cs == 'begin':
                name, i = self.req_arg(text, i)
                name = name.strip()
                i = self.begin(name, text, i, file, ln, line)
            elif cs == 'end':
                name, i = self.req_arg(text, i)
                self.end(name.strip(), file, ln)
            elif cs in SECTION_LEVELS:
                _, i = self.opt_arg(text, i)
                _, i = self.req_arg(text, i)
                self.section(cs, file, ln)
            elif cs == 'item':
                self.item(file, ln)
            elif cs == 'label':
                arg, i = self.req_arg(text, i)
                self.label(re.sub(r'\s+', ' ', arg).strip(), file, ln)
            elif cs == 'uses':
                arg, i = self.req_arg(text, i)
                items = [re.sub(r'\s+', ' ', a).strip() for a in arg.split(',')]
                if any(not a for a in items):
                    self.empty_items.append(f'{file}:{ln}')
                items = [a for a in items if a]
                parent = self.top()
                parent.uses = items
                parent.uses_count += 1
                self.uses.append((parent, items, file, ln))
            elif cs == 'proves':
                arg, i = self.req_arg(text, i)
                self.top().proves = re.sub(r'\s+', ' ', arg).strip()
            elif cs in ('leanok', 'mathlibok', 'notready'):
                t = self.top()
                if cs == 'notready':
                    t.notready = True
                else:
                    t.leanok = True             # leanblueprint: \mathlibok sets leanok too
                    t.mathlibok = t.mathlibok or cs == 'mathlibok'
                if not (t.thm or t.name == 'proof'):
                    self.misplaced.append(f'{file}:{ln} \\{cs} in {t.kind} {t.name}')
            elif cs == 'caption':
                self.current = Box('caption', 'caption', self.top(), file, ln)
        return

    def begin(self, name, text, i, file, ln, line):
        parent = self.top()
        if name in VERBATIM_ENVS:
            m = re.compile(r'\\end\s*\{' + re.escape(name) + r'\}').search(text, i)
            return len(text) if not m else m.end()
        box = Box('env', name, parent, file, ln)
        self.push(box)
        if name in self.theorems:
            box.thm, box.numbered = True, self.theorems[name]
            parent.children.append(box)
            self.all_envs.append(box)
            if box.numbered:
                self.current = box
            title, j = self.opt_arg(text, i)
            if title is not None:
                self.scan_arg(title, file, ln)
                i = j
        elif name == 'proof':
            parent.children.append(box)
            self.all_envs.append(box)
            title, j = self.opt_arg(text, i)
            if title is not None:
                self.scan_arg(title, file, ln)
                i = j
        elif name in NUMBERED_MATH:
            self.current = box
        return i

    def scan_arg(self, content, file, ln):
        """An optional argument's content: what it holds is not in the environment's body."""
        arg = Box('arg', '[]', self.top(), file, ln)
        self.push(arg)
        self.scan(content, file)
        while self.top() is not arg:
            self.anomalies.append(f'{file}:{ln}: unbalanced optional argument')
            self.stack.pop()
        self.stack.pop()

    def end(self, name, file, ln):
        if name in VERBATIM_ENVS:
            return
        k = len(self.stack) - 1
        while k > 0 and not (self.stack[k].kind == 'env' and self.stack[k].name == name):
            k -= 1
        if k == 0:
            self.anomalies.append(f'{file}:{ln}: \\end{{{name}}} without \\begin')
            return
        for b in self.stack[k + 1:]:
            if b.kind not in ('item', 'section'):
                self.anomalies.append(f'{file}:{ln}: \\end{{{name}}} closes {b.kind} {b.name} opened at {b.where()}')
        del self.stack[k:]

    def section(self, cs, file, ln):
        level = SECTION_LEVELS[cs]
        while self.top().kind != 'document' and not (self.top().kind == 'env' and self.top().name == 'document'):
            t = self.top()
            if t.kind == 'section' and t.level < level:
                break
            if t.kind != 'section':
                self.anomalies.append(f'{file}:{ln}: \\{cs} inside {t.kind} {t.name} opened at {t.where()}')
                break
            self.stack.pop()
        box = Box('section', cs, self.top(), file, ln, level=level)
        self.push(box)
        self.current = box      # plasTeX: even starred sections become the current label

    def item(self, file, ln):
        if self.top().kind == 'item':
            self.stack.pop()
        box = Box('item', 'item', self.top(), file, ln)
        if not (self.top().kind == 'env' and self.top().name in LIST_ENVS):
            self.anomalies.append(f'{file}:{ln}: \\item inside {self.top().kind} {self.top().name}')
        self.push(box)
        self.current = box      # plasTeX: every \item steps a counter (enumi...), itemize too

    def label(self, name, file, ln):
        if not name:
            return
        target = self.current
        if target is None:
            self.anomalies.append(f'{file}:{ln}: \\label{{{name}}} with no labelled object before it')
            return
        # where the \label sits versus what it names: worth a look when they differ
        enclosing = next((b for b in reversed(self.stack) if b.thm), None)
        if enclosing is not None and target is not enclosing and target not in self.stack:
            self.anomalies.append(f'{file}:{ln}: \\label{{{name}}} inside {enclosing.name} at {enclosing.where()} names the {target.kind} {target.name} at {target.where()}')
        if enclosing is None and target.thm:
            self.anomalies.append(f'{file}:{ln}: \\label{{{name}}} outside any theorem-like environment names the {target.name} at {target.where()}')
        if name in self.labels and self.labels[name] is not target:
            self.anomalies.append(f'{file}:{ln}: \\label{{{name}}} defined again (the later one wins)')
        self.labels[name] = target
        target.id = name
        target.labels.append(name)


def find_proved_thm(proof):
    """plastexdepgraph: walk back through the proof's paragraph's previous siblings (same
    container) to the first paragraph whose first child is a theorem-like environment (any
    \\newtheorem kind, a remark included)."""
    siblings = proof.parent.children
    k = siblings.index(proof)
    for b in reversed(siblings[:k]):
        if b.thm:
            return b
    return None


def chapter_of(box):
    b = box
    while b is not None:
        if b.kind == 'section' and b.name == 'chapter':
            return b
        b = b.parent
    return None


def extract(folder, root='blueprint/src/web.tex'):
    src_dir = os.path.dirname(os.path.join(folder, root))
    r = Reader(src_dir)
    r.read_file(os.path.basename(root))
    notes = []
    thm_types = [t for t in DEFAULT_TYPES]

    # ---- proofs: \proves, else the statement before them; the last proof of a statement wins
    for box in r.all_envs:
        if box.name != 'proof':
            continue
        proved = None
        if box.proves is not None:
            proved = r.labels.get(box.proves)
            if proved is None:
                notes.append(f'\\proves{{{box.proves}}} at {box.where()} names no label: plastexdepgraph falls back to the statement before the proof')
        if proved is None:
            proved = find_proved_thm(box)
        box.proved = proved
        if proved is not None:
            if proved.proved_by is not None:
                old = proved.proved_by
                notes.append(f'{proved.name} {proved.id or "(unlabelled)"} at {proved.where()} has several proofs ({old.where()}, {box.where()}): only the last counts')
            proved.proved_by = box

    all_thm = [b for b in r.all_envs if b.thm]
    kinds = [b for b in all_thm if b.name in thm_types]
    nodes = [b for b in kinds if b.id is not None]
    node_set = set(map(id, nodes))

    edges, unresolved, dropped = set(), [], []
    proves_edges = []

    def add(src, items, where, at):
        for lab in items:
            tgt = r.labels.get(lab)
            if tgt is None:
                unresolved.append([src.id, lab, where])
            elif id(tgt) not in node_set:
                dropped.append([src.id, lab, where, f'{tgt.kind} {tgt.name} at {tgt.where()}'])
            else:
                e = (src.id, tgt.id, where)
                edges.add(e)
                if tgt is src:
                    notes.append(f'self-edge {src.id} ({where}) from {at}')
                if where == 'proof' and src.proved_by.proves is not None:
                    proves_edges.append(e)

    for b in nodes:
        if b.uses is not None:
            add(b, b.uses, 'statement', b.where())
        p = b.proved_by
        if p is not None and p.uses is not None:
            add(b, p.uses, 'proof', p.where())

    # ---- what plastexdepgraph does not draw, for the record
    lost = []
    for parent, items, f, l in r.uses:
        if parent.thm or parent.name == 'proof':
            if parent.uses is not items:
                lost.append(f'{f}:{l} \\uses{{{",".join(items)}}} in {parent.name} at {parent.where()}: a later \\uses in the same environment replaces it')
            continue
        holder = next((b for b in iter_up(parent) if b.thm or b.name == 'proof'), None)
        lost.append(f'{f}:{l} \\uses{{{",".join(items)}}} sits in {parent.kind} {parent.name}'
                    + (f' inside {holder.name} at {holder.where()}' if holder else ' outside any statement or proof')
                    + ': plasTeX attaches it to that, not to a statement or proof')
    unl = [b for b in kinds if b.id is None]
    unl_uses = [b for b in unl if b.uses or (b.proved_by is not None and b.proved_by.uses)]
    other_kind = [b for b in all_thm if b.name not in thm_types]
    other_with_uses = [b for b in other_kind if b.uses or (b.proved_by is not None and b.proved_by.uses)]
    proofs = [b for b in r.all_envs if b.name == 'proof']
    orphan = [p for p in proofs if p.proved is None]
    to_other = [p for p in proofs if p.proved is not None and p.proved.name not in thm_types]
    to_unl = [p for p in proofs if p.proved is not None and p.proved.name in thm_types and p.proved.id is None]
    not_adjacent = []
    for p in proofs:
        sib = p.parent.children
        k = sib.index(p)
        if p.proved is not None and (k == 0 or sib[k - 1] is not p.proved):
            not_adjacent.append(p)
    multi_label = [b for b in nodes if len(b.labels) > 1]
    odd_labels = [b.id for b in nodes if re.search(r'[,\s]', b.id)]
    # unresolved labels that a file of the folder never read does define
    elsewhere = {}
    for dirpath, _, fs in os.walk(src_dir):
        for fn in fs:
            rel = os.path.normpath(os.path.relpath(os.path.join(dirpath, fn), src_dir))
            if fn.endswith('.tex') and rel not in r.files:
                with open(os.path.join(dirpath, fn), encoding='utf-8', errors='replace') as f:
                    for m in re.finditer(r'\\label\s*\{([^{}]*)\}', f.read()):
                        elsewhere.setdefault(re.sub(r'\s+', ' ', m.group(1)).strip(), rel)

    notes[:0] = [
        f'root {root}; files read: ' + ', '.join(r.files),
        f'theorem-like environments declared (web build): ' + ', '.join(f'{k}{"" if v else "*"}' for k, v in r.theorems.items())
        + f'; graph node kinds (plastexdepgraph default thms, no thms= option given): {", ".join(t for t in thm_types if t in r.theorems)}',
        f'{len(kinds)} environments of those kinds, {len(nodes)} labelled (the nodes); {len(unl)} unlabelled, '
        f'{len(unl_uses)} of them hold \\uses in statement or proof: dropped here (plastexdepgraph would draw them under a generated id)',
        f'{len(other_kind)} theorem-like environments of other kinds ({", ".join(sorted(set(b.name for b in other_kind)))}) are no nodes; '
        f'{len(other_with_uses)} of them hold \\uses; a \\uses naming one is listed under droppedTargets',
        f'{len(proofs)} proofs: {len(proofs) - len(orphan)} attached ({sum(1 for p in proofs if p.proves is not None)} with \\proves), '
        f'{len(orphan)} attached to nothing, {len(to_other)} to a theorem-like environment of another kind, '
        f'{len(to_unl)} to an unlabelled statement, {len(not_adjacent)} not right after what they prove',
        f'{len(edges)} edges ({sum(1 for e in edges if e[2] == "statement")} statement, {sum(1 for e in edges if e[2] == "proof")} proof), '
        f'{len(unresolved)} unresolved, {len(dropped)} to labels of non-nodes',
    ]
    for p in to_other:
        if p.uses:
            notes.append(f'the proof at {p.where()} follows the {p.proved.name} at {p.proved.where()} (plastexdepgraph attaches a proof to the '
                         f'theorem-like environment before it, whatever its kind): its \\uses{{{", ".join(p.uses)}}} draws no edge')
    for b in unl_uses:
        notes.append(f'unlabelled {b.name} at {b.where()} holds \\uses{{{", ".join((b.uses or []) + ((b.proved_by.uses or []) if b.proved_by else []))}}}: left out')
    dup = sum(1 for b in nodes for lab in (b.uses or [])) + sum(1 for b in nodes if b.proved_by for lab in (b.proved_by.uses or []))
    dup -= len(edges) + len(unresolved) + len(dropped)
    notes.append(f'{dup} repeated \\uses items (same from, to, where) counted once')
    if odd_labels:
        notes.append('node labels holding a comma or a space (plasTeX keeps the whole argument, so no \\uses of either part resolves): ' + '; '.join(odd_labels))
    gone = [u for u in unresolved if u[1] in elsewhere]
    if gone:
        notes.append('unresolved labels defined only in files the root never reads: ' + '; '.join(f'{u[1]} ({elsewhere[u[1]]})' for u in gone))
    if multi_label:
        notes.append('nodes with several labels (named by the last, as plasTeX sets node.id): '
                     + '; '.join(f'{b.id} = {b.labels}' for b in multi_label))
    dep_by = re.search(r'dep_by\s*=\s*(\w+)', open(os.path.join(src_dir, os.path.basename(root)), encoding='utf-8').read())
    cross = []
    if dep_by:
        outside = [b.id for b in nodes if chapter_of(b) is None]
        if outside:
            notes.append(f'nodes in no chapter (in no per-chapter graph): {outside}')
        for (s, t, w) in sorted(edges):
            cs, ct = chapter_of(r.labels[s]), chapter_of(r.labels[t])
            if cs is not ct:
                cross.append([s, t, w])
        notes.append(f'the root loads blueprint with dep_by={dep_by.group(1)}: plastexdepgraph draws one graph per {dep_by.group(1)} '
                     f'and leaves out the {len(cross)} edges between {dep_by.group(1)}s (listed under crossChapterEdges); '
                     f'"edges" is the whole-document graph')
    if r.empty_items:
        notes.append(f'{len(r.empty_items)} \\uses lists with an empty item (\\uses{{}} or a trailing comma), which plastexdepgraph looks up as the label "" and reports unresolved; left out of "unresolved": '
                     + ', '.join(r.empty_items))
    notes.append('plastexdepgraph draws the transitive reduction (dot tred) unless nonreducedgraph is given; "edges" are all edges')
    notes.extend(lost)
    notes.extend(m + ': attached there, not to a statement or proof' for m in r.misplaced)

    notes.append(f'status: statementDone counts leanblueprint\'s leanok flag, which \\mathlibok also sets '
                 f'({sum(1 for b in nodes if b.leanok and not b.mathlibok)} statements with \\leanok and no \\mathlibok); '
                 f'proofDone: the statement\'s (last) proof has \\leanok or \\mathlibok; \\leanok anywhere but directly in the statement or proof (e.g. in an \\item) does not count')
    status = {
        'statementDone': sum(1 for b in nodes if b.leanok),
        'proofDone': sum(1 for b in nodes if b.proved_by is not None and b.proved_by.leanok),
        'mathlib': sum(1 for b in nodes if b.mathlibok),
        'notReady': sum(1 for b in nodes if b.notready),
    }
    out = {
        'blueprint': os.path.basename(os.path.normpath(folder)),
        'root': root,
        'nodes': len(nodes),
        'edges': sorted(list(e) for e in edges),
        'unresolved': sorted(unresolved),
        'droppedTargets': sorted(dropped),
        'status': status,
        'notes': notes,
    }
    if dep_by:
        out['crossChapterEdges'] = cross
    if r.anomalies:
        out['readerWarnings'] = r.anomalies
    detail = {'reader': r, 'nodes': nodes, 'proves_edges': sorted(set(proves_edges)),
               'not_adjacent': not_adjacent, 'proofs': proofs}
    return out, detail


def iter_up(b):
    while b is not None:
        yield b
        b = b.parent


def explain(folder, root):
    out, ex = extract(folder, root)
    r = ex['reader']
    for b in ex['nodes']:
        if b.uses:
            for lab in b.uses:
                print(f'statement\t{b.id}\t{lab}\t{b.where()}')
        p = b.proved_by
        if p is not None and p.uses:
            for lab in p.uses:
                print(f'proof\t{b.id}\t{lab}\t{p.where()}\t(statement {b.where()}{", proves" if p.proves else ""})')


def sample(folder, root, n=25, seed=20240601):
    """The hand check's sample: n edges drawn with a fixed seed, plus every edge of a \\proves proof."""
    out, ex = extract(folder, root)
    edges = [tuple(e) for e in out['edges']]
    picked = random.Random(seed).sample(edges, min(n, len(edges)))
    for e in picked:
        print('random', *e, sep='\t')
    for e in ex['proves_edges']:
        print('proves', *e, sep='\t')


if __name__ == '__main__':
    args = sys.argv[1:]
    if args and args[0] == '--sample':
        sample(args[1], args[2] if len(args) > 2 else 'blueprint/src/web.tex')
        sys.exit(0)
    if args and args[0] == '--explain':
        explain(args[1], args[2] if len(args) > 2 else 'blueprint/src/web.tex')
        sys.exit(0)
    folder = args[0]
    root = args[1] if len(args) > 1 else 'blueprint/src/web.tex'
    out, _ = extract(folder, root)
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write('\n')
