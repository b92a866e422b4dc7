// The proof dependency graph of the workspace: nodes are theorem-like statements (a proof
// belongs to the statement it proves), edges are what a statement or its proof uses, through
// references resolved as LaTeX resolves them (the project's macros, xr external documents),
// blueprint `\uses`, and results named by number or name that resolve to exactly one
// statement. Kept current edit by edit: an edit re-reads and re-resolves only the edited
// document's statements, unless it changed what others resolve against (labels, statement
// titles or kinds, the include graph, the `.aux` numbers), which re-resolves everything; a
// label added, removed or renamed re-resolves the documents that write its name.
import type { DocLabel } from '../../model/documentView.js';
import type { Doc, Workspace } from '../../project/workspace.js';
import { printedNumberOf, type AuxNumbers } from '../../project/auxNumbers.js';
import { documentUsesCurrent, documentUsesSteps, noUses, normalizeName, type DocumentUses, type Mention, type StatementUses, type UseSite, type Where } from './documentUses.js';
import { countedNumbers } from './countedNumbers.js';
import { drain } from '../../util/turns.js';
import { projectMacros } from '../../project/userMacros.js';

/** A statement: `docId#ordinal`. */
export type NodeKey = string;

export interface DepNode {
  key: NodeKey;
  doc: Doc;
  su: StatementUses;
}

export type EdgeKind = 'explicit' | 'byName';
export type EdgeVia = 'ref' | 'uses' | 'number' | 'name' | 'previous';

const VIAS: readonly EdgeVia[] = ['ref', 'uses', 'number', 'name', 'previous'];
const KIND_BIT = 1, PROOF_BIT = 2, WEAK_BIT = 4, EXTERNAL_BIT = 8, INNER_BIT = 16, VIA_SHIFT = 5;

/**
 * What a statement or its proof uses, written at one place. A large project holds tens of
 * thousands: the small facts are packed in one number, read back through the getters.
 */
export class DepEdge {
  private readonly bits: number;

  constructor(
    readonly from: NodeKey,
    readonly to: NodeKey,
    /** The reference key or the name as written (a `\uses` key, "lemma 3.2", "cauchy schwarz"). */
    readonly name: string,
    /** Where it is written. */
    readonly doc: Doc,
    readonly start: number,
    readonly end: number,
    f: { kind: EdgeKind; where: Where; via: EdgeVia; weak: boolean; external: boolean; inner: boolean },
  ) {
    this.bits = (f.kind === 'byName' ? KIND_BIT : 0) | (f.where === 'proof' ? PROOF_BIT : 0) | (f.weak ? WEAK_BIT : 0)
      | (f.external ? EXTERNAL_BIT : 0) | (f.inner ? INNER_BIT : 0) | (VIAS.indexOf(f.via) << VIA_SHIFT);
  }

  get kind(): EdgeKind { return this.bits & KIND_BIT ? 'byName' : 'explicit'; }
  get where(): Where { return this.bits & PROOF_BIT ? 'proof' : 'statement'; }
  /** A reference command, a blueprint `\uses`, a printed number, a name. */
  get via(): EdgeVia { return VIAS[this.bits >> VIA_SHIFT]; }
  /** A mention in passing ("as in the proof of …", `\pageref`): shown, never the ground of a check. */
  get weak(): boolean { return (this.bits & WEAK_BIT) !== 0; }
  /** Reached through xr (`\externaldocument`): the target is in a document compiled apart. */
  get external(): boolean { return (this.bits & EXTERNAL_BIT) !== 0; }
  /**
   * The reference names a label inside the statement (an equation, an item) or in its proof,
   * not the statement's own: often a hypothesis cited ("under (3.1)"), not the result used.
   * Shown; never the ground of a check.
   */
  get inner(): boolean { return (this.bits & INNER_BIT) !== 0; }
}

const NO_EDGES: readonly DepEdge[] = Object.freeze([]) as readonly DepEdge[];

/** Takes `e` out of the list under `key`, and the list once empty. */
function removeFrom(m: Map<NodeKey, DepEdge[]>, key: NodeKey, e: DepEdge): void {
  const list = m.get(key);
  if (!list) return;
  const i = list.lastIndexOf(e);
  if (i >= 0) list.splice(i, 1);
  if (list.length === 0) m.delete(key);
}

const sameContext = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Where a reference key lands. */
interface Resolved { key: NodeKey; external: boolean; inner: boolean }

export interface NodeNumber { number: string; from: 'aux' | 'counted' }

/** The `.aux` numbers of a document's project, when its last LaTeX run left them. */
export type NumbersOf = (doc: Doc) => AuxNumbers | undefined;

interface Part {
  doc: Doc;
  /** The document's version the part was read from, with what its reading rests on outside it (the project's theorem kinds and macros). */
  version: number;
  context: readonly unknown[];
  uses: DocumentUses;
  nodes: DepNode[];
  /** The edges this document's statements and proofs make. */
  out: DepEdge[];
  /** What its statements and edges mean, positions aside (Part#signature): whether a re-read changed anything. */
  sig?: string;
}

/** What the checks, lenses and hover lines read of a document's part: its edges and its statements' marks, not where they are. */
function signature(part: Part): string {
  const nodes = part.nodes.map((n) => {
    const m = n.su.marks;
    return `${n.key}|${m.leanok ? 1 : 0}${m.proofLeanok ? 1 : 0}${m.mathlibok ? 1 : 0}${m.notready ? 1 : 0}|${m.lean.join(',')}|${n.su.proofs.length}|${n.su.provable ? 1 : 0}${n.su.cites ? 1 : 0}`;
  });
  const edges = part.out.map((e) => `${e.from}>${e.to}|${e.kind}|${e.where}|${e.via}|${e.weak ? 1 : 0}${e.external ? 1 : 0}${e.inner ? 1 : 0}`).sort();
  return `${nodes.join('\n')}\n--\n${edges.join('\n')}`;
}

/** A part's signature, kept once made. */
const signatureOf = (p: Part): string => p.sig ?? signature(p);

/** Documents longer than this are left out of the graph: reading them would hold the server too long (a generated dump, not an author's text). */
const MAX_GRAPH_CHARS = 8_000_000;
/** Documents looked at between pauses of an update. */
const DOCS_PER_PAUSE = 16;
/** Documents re-resolved between pauses of a full re-resolve. */
const PARTS_PER_PAUSE = 8;

/** A name ending with a word that says what kind of result it is (mentions by name compare whole names). */
const GENERIC_END = /\b(theorem|lemma|proposition|corollary|inequality|principle|formula|criterion|test|property|identity|law|rule)$/;

interface MentionIndex { numbers: Map<string, NodeKey[]>; names: Map<string, NodeKey[]>; wholeNames: Map<string, NodeKey[]> }

const KIND_WORD = /^(theorem|lemma|proposition|corollary|definition|claim)\b/i;

export class DependencyIndex {
  /** By document URI: a document opened again (a new object for the same file) keeps its part and its statements' keys. */
  private readonly parts = new Map<string, Part>();
  private readonly uriIds = new Map<string, number>();
  /** Reference key as written → URIs of the documents writing it (what a label's change re-resolves). */
  private readonly writers = new Map<string, string | Set<string>>();
  private readonly byKey = new Map<NodeKey, DepNode>();
  private readonly outOf = new Map<NodeKey, DepEdge[]>();
  private readonly into = new Map<NodeKey, DepEdge[]>();
  private stamp = '';
  /** Per root whose numbers were read: the `.aux` labels they were read from (the store keeps one map per unchanged file set). */
  private numbersSeen = new Map<Doc, unknown>();
  /** Per scope: numbers and names statements are mentioned by, built when first asked. */
  private mentionIndex = new WeakMap<Set<Doc>, MentionIndex>();
  private numberCache = new Map<NodeKey, NodeNumber | null>();
  private countedCache = new Map<Doc, Map<string, Map<number, string>>>();
  /** Per document: where each reference key written in it lands; valid until what keys resolve against changes (a full re-resolve). */
  private resolved = new Map<string, Map<string, Resolved | null>>();
  private resolvedObjects = new Map<NodeKey, Resolved[]>();
  /** Advances whenever an edge or node changes: what answers derived from the graph are kept by. */
  version = 0;
  /**
   * Advances only when what the graph says changes (edges, statements, marks), not when a re-read
   * finds the same at new places: what the session re-publishes checks and redraws lenses on.
   */
  meaningVersion = 0;
  /** Documents re-read by the last sync, and whether it re-resolved everything. */
  lastSync: { reread: number; full: boolean } = { reread: 0, full: false };

  constructor(private readonly ws: Workspace, private numbersOf: NumbersOf = () => undefined) {}

  /** Brings the graph up to date with the workspace. */
  sync(numbersOf?: NumbersOf): void {
    drain(this.syncSteps(numbersOf));
  }

  /** Whether the whole workspace has been read once (what follows is edit by edit). */
  built = false;

  /** Built and holding every document's current version: answers need no update (a cheap look). */
  isCurrent(): boolean {
    if (!this.built || this.stamp !== `${this.ws.graphGeneration()}`) return false;
    const docs = this.ws.all();
    if (docs.length !== this.parts.size) return false;
    for (const d of docs) {
      const p = this.parts.get(d.uri);
      // versions only: what a document's reading rests on elsewhere changes only with an edit there, which this sees
      if (p?.doc !== d || p.version !== d.version) return false;
    }
    return true;
  }

  /** What a document's reading rests on outside it: the theorem kinds and the macros of its project (cached objects, compared by identity). */
  private contextOf(d: Doc): readonly unknown[] {
    return [this.ws.theorems(d), projectMacros(this.ws, d)];
  }

  /** `sync`, pausing (`yield`) between documents: the first build of a large project runs in turns. */
  *syncSteps(numbersOf?: NumbersOf): Generator<void, void> {
    if (numbersOf) this.numbersOf = numbersOf;
    // nothing edited and no new `.aux` numbers: nothing to look at (a request that asks for the
    // graph at rest must not look up every document's project macros)
    if (this.isCurrent() && ![...this.numbersSeen].some(([root, seen]) => this.numbersOf(root)?.labels !== seen)) {
      this.lastSync = { reread: 0, full: false };
      return;
    }
    const ws = this.ws;
    const stamp = `${ws.graphGeneration()}`;
    let full = stamp !== this.stamp;
    const changed: Array<[Doc, DocumentUses]> = [];
    const renamed = new Set<string>();
    const docs = ws.all();
    const present = new Set(docs.map((d) => d.uri));
    for (const [uri, p] of this.parts) if (!present.has(uri)) { full ||= p.uses.statements.length > 0; this.parts.delete(uri); }
    let looked = 0;
    for (const d of docs) {
      // what each document's reading rests on is looked up (its project's macros): a pause now and then
      if (++looked % DOCS_PER_PAUSE === 0) yield;
      const old0 = this.parts.get(d.uri);
      if (old0 && old0.doc === d && old0.version === d.version && sameContext(old0.context, this.contextOf(d))) continue;
      // a document read for the first time or edited is read now, a pause after each
      if (!old0 || old0.doc !== d || !documentUsesCurrent(d)) yield;
      const u = d.text.length > MAX_GRAPH_CHARS ? noUses(d) : yield* documentUsesSteps(ws, d);
      const old = this.parts.get(d.uri);
      if (old?.uses === u && old.doc === d) { old.version = d.version; old.context = this.contextOf(d); continue; }
      changed.push([d, u]);
      if (!old ? u.statements.length > 0 : old.uses.shape !== u.shape) full = true;
      if (old) {
        for (const n of u.labelNames) if (!old.uses.labelNames.has(n)) renamed.add(n);
        for (const n of old.uses.labelNames) if (!u.labelNames.has(n)) renamed.add(n);
      } else {
        for (const n of u.labelNames) renamed.add(n);
      }
    }
    // new `.aux` numbers change what "Lemma 3.2" resolves to (only roots whose numbers were read)
    for (const [root, seen] of this.numbersSeen) {
      if (!present.has(root.uri)) { this.numbersSeen.delete(root); continue; }
      if (this.numbersOf(root)?.labels !== seen) full = true;
    }
    this.lastSync = { reread: changed.length, full };
    if (!full && changed.length === 0) return;
    this.version++;
    if (full) {
      this.stamp = stamp;
      for (const [d, u] of changed) this.parts.set(d.uri, { doc: d, version: d.version, context: this.contextOf(d), uses: u, nodes: [], out: [] });
      yield* this.rebuild();
      for (const p of this.parts.values()) p.sig = undefined;
      this.meaningVersion++;
      this.built = true;
      return;
    }
    const redo = new Set<string>();
    const before = new Map<string, string | undefined>();
    for (const [d, u] of changed) {
      const old = this.parts.get(d.uri);
      before.set(d.uri, old && signatureOf(old));
      if (old) for (const e of old.out) this.unlink(e);
      // same shape: the same keys, new statement data
      const part: Part = { doc: d, version: d.version, context: this.contextOf(d), uses: u, nodes: this.nodesOf(d, u), out: [] };
      for (const n of part.nodes) { this.byKey.set(n.key, n); this.numberCache.delete(n.key); }
      this.parts.set(d.uri, part);
      this.write(d.uri, u, old?.uses);
      if (old?.doc !== d || renamed.size) this.resolved.delete(d.uri);
      redo.add(d.uri);
    }
    if (renamed.size) {
      // the documents that write a label that came or went (under an xr prefix too) resolve it again
      const prefixes = this.prefixes();
      for (const n of renamed) {
        for (const w of [n, ...prefixes.map((p) => p + n)]) {
          for (const uri of this.writersOf(w)) {
            this.resolved.get(uri)?.delete(w);
            if (!before.has(uri)) { const p = this.parts.get(uri); before.set(uri, p && signatureOf(p)); }
            redo.add(uri);
          }
        }
      }
      // numbers from the `.aux` and the names mentions resolve against are read again
      this.mentionIndex = new WeakMap();
    }
    for (const uri of redo) {
      const part = this.parts.get(uri);
      if (!part) continue;
      if (!changed.some(([d]) => d.uri === uri)) for (const e of [...part.out]) this.unlink(e);
      part.out = [];
      this.resolvePart(part.doc, part);
    }
    let meant = false;
    for (const uri of redo) {
      const part = this.parts.get(uri);
      if (!part) continue;
      part.sig = signature(part);
      if (part.sig !== before.get(uri)) meant = true;
    }
    if (meant) this.meaningVersion++;
  }

  /** The xr prefixes in use (`\externaldocument[prefix]{…}`). */
  private prefixes(): string[] {
    const out = new Set<string>();
    for (const p of this.parts.values()) for (const inc of p.doc.includes()) if (inc.kind === 'external' && inc.prefix) out.add(inc.prefix);
    return [...out];
  }

  /** The document now writes `u.written` (before: `old.written`). */
  private write(uri: string, u: DocumentUses, old?: DocumentUses): void {
    if (old) {
      for (const n of old.written) {
        if (u.written.has(n)) continue;
        // most keys are written by one document: its URI stands alone, a set only for more
        const w = this.writers.get(n);
        if (w === uri) this.writers.delete(n);
        else if (typeof w === 'object') { w.delete(uri); if (w.size === 1) this.writers.set(n, [...w][0]); }
      }
    }
    for (const n of u.written) {
      if (old?.written.has(n)) continue;
      const w = this.writers.get(n);
      if (w === undefined) this.writers.set(n, uri);
      else if (typeof w === 'string') { if (w !== uri) this.writers.set(n, new Set([w, uri])); }
      else w.add(uri);
    }
  }

  /** The URIs of the documents that write reference key `n`. */
  private writersOf(n: string): Iterable<string> {
    const w = this.writers.get(n);
    return w === undefined ? [] : typeof w === 'string' ? [w] : w;
  }

  private *rebuild(): Generator<void, void> {
    this.resolved.clear();
    this.resolvedObjects.clear();
    this.byKey.clear();
    this.outOf.clear();
    this.into.clear();
    this.numberCache.clear();
    this.countedCache.clear();
    this.numbersSeen.clear();
    this.mentionIndex = new WeakMap();
    this.writers.clear();
    for (const p of this.parts.values()) {
      this.write(p.doc.uri, p.uses);
      p.nodes = this.nodesOf(p.doc, p.uses);
      p.out = [];
      for (const n of p.nodes) this.byKey.set(n.key, n);
    }
    let n = 0;
    for (const p of this.parts.values()) {
      this.resolvePart(p.doc, p);
      if (++n % PARTS_PER_PAUSE === 0) yield;
    }
  }

  private unlink(e: DepEdge): void {
    removeFrom(this.into, e.to, e);
    removeFrom(this.outOf, e.from, e);
  }

  private link(part: Part, e: DepEdge): void {
    part.out.push(e);
    const list = this.outOf.get(e.from);
    if (list) list.push(e); else this.outOf.set(e.from, [e]);
    const users = this.into.get(e.to);
    if (users) users.push(e); else this.into.set(e.to, [e]);
  }

  /** The edges of one document's statements and proofs. */
  private resolvePart(doc: Doc, part: Part): void {
    const key = (ordinal: number) => this.keyIn(doc, part, ordinal);
    for (const n of part.nodes) this.outOf.delete(n.key);
    const add = (from: NodeKey, uses: readonly UseSite[], mentions: readonly Mention[]) => {
      const explicit = new Set<NodeKey>();
      let memo = this.resolved.get(doc.uri);
      if (!memo) this.resolved.set(doc.uri, memo = new Map());
      for (const u of uses) {
        let to = memo.get(u.name);
        if (to === undefined) memo.set(u.name, to = this.resolveName(doc, u.name) ?? null);
        if (!to || to.key === from) continue;
        explicit.add(to.key);
        this.link(part, new DepEdge(from, to.key, u.name, doc, u.start, u.end, { kind: 'explicit', where: u.where, via: u.cmd === 'uses' ? 'uses' : 'ref', weak: u.weak, external: to.external, inner: to.inner }));
      }
      const named = new Set<NodeKey>();
      for (const m of mentions) {
        const to = this.resolveMention(doc, m, from);
        if (!to || to === from || explicit.has(to) || named.has(to)) continue;
        named.add(to);
        this.link(part, new DepEdge(from, to, m.key, doc, m.start, m.end, { kind: 'byName', where: m.where, via: m.kind, weak: false, external: false, inner: false }));
      }
    };
    for (const su of part.uses.statements) add(key(su.ordinal), su.uses, su.mentions);
    for (const f of part.uses.foreign) {
      const to = this.resolveName(doc, f.target);
      if (to && !to.external) add(to.key, f.uses, f.mentions);
      else if (!to && f.fallback !== undefined && this.ws.findLabel(doc, f.target).length === 0) add(key(f.fallback), f.uses, f.mentions);
    }
  }

  /** The statement a reference key written in `from` lands in: the one around its label (an equation's, an item's), or the one a proof holding it proves. */
  resolveName(from: Doc, name: string, depth = 0): Resolved | undefined {
    for (const loc of this.ws.findLabel(from, name)) {
      const owner = this.ownerOfLabel(loc.doc, loc.label, depth);
      if (owner) return this.resolvedAs(owner.key, loc.prefix !== '', owner.inner);
    }
    return undefined;
  }

  /** One object per statement and way of reaching it: the memo of every document that reaches it holds that one. */
  private resolvedAs(key: NodeKey, external: boolean, inner: boolean): Resolved {
    let four = this.resolvedObjects.get(key);
    if (!four) this.resolvedObjects.set(key, four = []);
    const i = (external ? 2 : 0) + (inner ? 1 : 0);
    return four[i] ??= { key, external, inner };
  }

  private ownerOfLabel(doc: Doc, label: DocLabel, depth: number): { key: NodeKey; inner: boolean } | undefined {
    const part = this.parts.get(doc.uri);
    if (!part) return undefined;
    const envs = doc.envs();
    for (let i = label.env; i >= 0 && i < envs.length; i = envs[i].parent) {
      const inner = i !== label.env || label.mathEnv >= 0;
      const ord = part.uses.statementOfEnv.get(i);
      if (ord !== undefined) return { key: this.keyIn(doc, part, ord), inner };
      const p = part.uses.proofOfEnv.get(i);
      if (typeof p === 'number') return { key: this.keyIn(doc, part, p), inner: true };
      if (typeof p === 'string') { const r = depth < 2 ? this.resolveName(doc, p, depth + 1) : undefined; return r && { key: r.key, inner: true }; }
    }
    return undefined;
  }

  /** `self`: the statement the mention is in or proves, never its own answer ("the previous lemma" in a lemma's proof is the one before it). */
  private resolveMention(from: Doc, m: Mention, self?: NodeKey): NodeKey | undefined {
    if (m.kind === 'previous') {
      // the nearest statement of that kind before the mention, in the same document
      const nodes = this.parts.get(from.uri)?.nodes ?? [];
      for (let i = nodes.length - 1; i >= 0; i--) {
        const n = nodes[i];
        if (n.su.st.env.end > m.start || n.key === self) continue;
        if (KIND_WORD.exec(n.su.st.kind.title)?.[1].toLowerCase() === m.key) return n.key;
      }
      return undefined;
    }
    const idx = this.mentionsOf(this.ws.scope(from));
    if (m.kind === 'number') {
      const hit = idx.numbers.get(m.key);
      return hit?.length === 1 ? hit[0] : undefined;
    }
    // the longest run of the mention's first words that is one statement's name
    if (m.whole) {
      const hit = idx.wholeNames.get(m.key);
      return hit?.length === 1 ? hit[0] : undefined;
    }
    const words = m.key.split(' ');
    for (let n = words.length; n >= 1; n--) {
      const k = words.slice(0, n).join(' ');
      if (k.length < 4) break;
      const hit = idx.names.get(k);
      if (hit) return hit.length === 1 ? hit[0] : undefined;
    }
    return undefined;
  }

  private mentionsOf(scope: Set<Doc>): MentionIndex {
    let idx = this.mentionIndex.get(scope);
    if (idx) return idx;
    idx = { numbers: new Map(), names: new Map(), wholeNames: new Map() };
    const push = (m: Map<string, NodeKey[]>, k: string, v: NodeKey) => { const l = m.get(k); if (!l) m.set(k, [v]); else if (!l.includes(v)) l.push(v); };
    for (const d of scope) {
      const part = this.parts.get(d.uri);
      if (!part) continue;
      for (const n of part.nodes) {
        const word = KIND_WORD.exec(n.su.st.kind.title)?.[1].toLowerCase();
        const num = this.numberOf(n.key);
        if (word && num) push(idx.numbers, `${word} ${num.number}`, n.key);
        const title = n.su.st.title && normalizeName(n.su.st.title);
        if (title && title.length >= 4) push(idx.names, title, n.key);
        if (title && title.length >= 4) {
          // whole names keep their kind word: the title's own, else the statement's kind ("Green" of a theorem is "Green's theorem")
          const whole = normalizeName(n.su.st.title!, true);
          push(idx.wholeNames, GENERIC_END.test(whole) ? whole : `${whole} ${n.su.st.kind.title.toLowerCase()}`, n.key);
        }
        // "Well ordering property of $\N$" is named "the well ordering property" too (not "Fundamental theorem of algebra" "the fundamental theorem")
        const ofMath = n.su.st.title && /\s+of\s+\$/.exec(n.su.st.title);
        const short = ofMath && normalizeName(n.su.st.title!.slice(0, ofMath.index));
        if (short && short !== title && short.length >= 4) push(idx.names, short, n.key);
        const shortWhole = ofMath && normalizeName(n.su.st.title!.slice(0, ofMath.index), true);
        if (shortWhole && GENERIC_END.test(shortWhole)) push(idx.wholeNames, shortWhole, n.key);
        // an unnumbered kind the project declares names one result (`\newtheorem*{wop}{Well ordering property}`)
        const kind = n.su.st.kind;
        if (!kind.numbered && kind.source === 'user' && !KIND_WORD.test(kind.title)) {
          const k = normalizeName(kind.title);
          if (k.length >= 4) push(idx.names, k, n.key);
          const whole = normalizeName(kind.title, true);
          if (GENERIC_END.test(whole)) push(idx.wholeNames, whole, n.key);
          const ofMath0 = /\s+of\s+\$/.exec(kind.title);
          if (ofMath0) { const w = normalizeName(kind.title.slice(0, ofMath0.index), true); if (GENERIC_END.test(w)) push(idx.wholeNames, w, n.key); }
          const ofMath = /\s+of\s+\$/.exec(kind.title);
          const ks = ofMath && normalizeName(kind.title.slice(0, ofMath.index));
          if (ks && ks !== k && ks.length >= 4) push(idx.names, ks, n.key);
        }
      }
    }
    this.mentionIndex.set(scope, idx);
    return idx;
  }

  /** The number LaTeX prints for a statement: the `.aux`'s, else counted from the source. */
  numberOf(key: NodeKey): NodeNumber | undefined {
    const hit = this.numberCache.get(key);
    if (hit !== undefined) return hit ?? undefined;
    const n = this.byKey.get(key);
    let out: NodeNumber | undefined;
    if (n) {
      const root = this.ws.roots(n.doc)[0] ?? n.doc;
      const aux = this.numbersOf(root);
      this.numbersSeen.set(root, aux?.labels);
      for (const l of n.su.st.labels) {
        const p = aux && printedNumberOf(aux, l.name);
        if (p) { out = { number: p, from: 'aux' }; break; }
      }
      if (!out && n.su.st.kind.numbered) {
        let counted = this.countedCache.get(root);
        if (!counted) this.countedCache.set(root, counted = countedNumbers(this.ws, root));
        const c = counted.get(n.doc.uri)?.get(n.su.ordinal);
        if (c) out = { number: c, from: 'counted' };
      }
    }
    this.numberCache.set(key, out ?? null);
    return out;
  }

  node(key: NodeKey): DepNode | undefined {
    return this.byKey.get(key);
  }

  /** The statements of a document, in order. */
  nodesIn(doc: Doc): readonly DepNode[] {
    const p = this.parts.get(doc.uri);
    return p?.doc === doc ? p.nodes : [];
  }

  /** The statement at `offset`: the innermost statement around it, or the statement the proof around it proves. */
  nodeAt(doc: Doc, offset: number): DepNode | undefined {
    const part = this.parts.get(doc.uri);
    if (part?.doc !== doc) return undefined;
    const envs = doc.envs();
    for (let i = doc.envAt(offset); i >= 0; i = envs[i].parent) {
      const ord = part.uses.statementOfEnv.get(i);
      if (ord !== undefined) return part.nodes[ord];
      const p = part.uses.proofOfEnv.get(i);
      if (typeof p === 'number') return part.nodes[p];
      if (typeof p === 'string') { const r = this.resolveName(doc, p); return r && this.byKey.get(r.key); }
    }
    return undefined;
  }

  /** What a statement and its proofs use, in the order written. */
  uses(key: NodeKey): readonly DepEdge[] {
    return this.outOf.get(key) ?? NO_EDGES;
  }

  /** What uses a statement (from any document of the workspace, xr included). */
  usedBy(key: NodeKey): DepEdge[] {
    return [...(this.into.get(key) ?? NO_EDGES)];
  }

  /** The workspace's documents the graph holds statements of. */
  documents(): Doc[] {
    return [...this.parts.values()].map((p) => p.doc);
  }

  blueprint(docs: Iterable<Doc>): boolean {
    for (const d of docs) if (this.parts.get(d.uri)?.uses.blueprint) return true;
    return false;
  }

  /** A number per document URI for the session: keys stay the same when a document is opened again. */
  private idOf(doc: Doc): number {
    let id = this.uriIds.get(doc.uri);
    if (id === undefined) this.uriIds.set(doc.uri, id = this.uriIds.size);
    return id;
  }

  /** The key of the statement at `ordinal` in `doc`: its node's own string (edges and memos hold that one, not a copy each). */
  private keyIn(doc: Doc, part: Part, ordinal: number): NodeKey {
    return part.nodes[ordinal]?.key ?? `${this.idOf(doc)}#${ordinal}`;
  }

  private nodesOf(doc: Doc, uses: DocumentUses): DepNode[] {
    const id = this.idOf(doc);
    return uses.statements.map((su) => ({ key: `${id}#${su.ordinal}`, doc, su }));
  }

  /**
   * Cycles of proofs among `nodes`: the strongly connected groups of what proofs (and blueprint
   * statements' `\uses`) use explicitly, mentions in passing left out. Each cycle in the order
   * it runs, starting from its first statement in `nodes`.
   */
  cycles(nodes: readonly DepNode[]): NodeKey[][] {
    const inSet = new Set(nodes.map((n) => n.key));
    const next = (k: NodeKey) => this.uses(k).filter((e) => e.kind === 'explicit' && !e.weak && !e.inner && (e.where === 'proof' || e.via === 'uses') && inSet.has(e.to) && e.to !== k).map((e) => e.to);
    // Tarjan's algorithm, iterative
    const index = new Map<NodeKey, number>(), low = new Map<NodeKey, number>(), onStack = new Set<NodeKey>();
    const stack: NodeKey[] = [];
    const out: NodeKey[][] = [];
    let counter = 0;
    for (const start of nodes) {
      if (index.has(start.key)) continue;
      const work: Array<{ k: NodeKey; succ: NodeKey[]; i: number }> = [];
      const enter = (k: NodeKey) => { index.set(k, counter); low.set(k, counter); counter++; stack.push(k); onStack.add(k); work.push({ k, succ: [...new Set(next(k))], i: 0 }); };
      enter(start.key);
      while (work.length) {
        const top = work[work.length - 1];
        if (top.i < top.succ.length) {
          const w = top.succ[top.i++];
          if (!index.has(w)) enter(w);
          else if (onStack.has(w)) low.set(top.k, Math.min(low.get(top.k)!, index.get(w)!));
          continue;
        }
        work.pop();
        if (work.length) { const parent = work[work.length - 1].k; low.set(parent, Math.min(low.get(parent)!, low.get(top.k)!)); }
        if (low.get(top.k) === index.get(top.k)) {
          const comp: NodeKey[] = [];
          let w: NodeKey;
          do { w = stack.pop()!; onStack.delete(w); comp.push(w); } while (w !== top.k);
          if (comp.length > 1) out.push(this.cycleOrder(comp, next));
        }
      }
    }
    return out;
  }

  /** A cycle through a strongly connected group, from its first member: the shortest way back found by breadth-first search. */
  private cycleOrder(comp: NodeKey[], next: (k: NodeKey) => NodeKey[]): NodeKey[] {
    const members = new Set(comp);
    const first = comp.reduce((a, b) => (this.order(a) <= this.order(b) ? a : b));
    const prev = new Map<NodeKey, NodeKey>();
    const queue = [first];
    while (queue.length) {
      const k = queue.shift()!;
      for (const w of next(k)) {
        if (!members.has(w)) continue;
        if (w === first) {
          const path = [k];
          while (path[0] !== first) path.unshift(prev.get(path[0])!);
          return path;
        }
        if (!prev.has(w)) { prev.set(w, k); queue.push(w); }
      }
    }
    return comp;
  }

  private order(k: NodeKey): number {
    const [doc, ord] = k.split('#');
    return Number(doc) * 1e6 + Number(ord);
  }
}

const indexes = new WeakMap<Workspace, DependencyIndex>();

/** The workspace's dependency graph, brought up to date. */
export function dependencyIndex(ws: Workspace, numbersOf?: NumbersOf): DependencyIndex {
  const idx = indexOf(ws, numbersOf);
  idx.sync(numbersOf);
  return idx;
}

/**
 * The graph only once it has been built (in turns, by the session): what may not wait for a
 * first build of the whole workspace (a hover's line, lenses, diagnostics) asks this; after it,
 * an edit updates the graph in a moment.
 */
export function builtDependencyIndex(ws: Workspace, numbersOf?: NumbersOf): DependencyIndex | undefined {
  const idx = indexes.get(ws);
  if (!idx?.built) return undefined;
  idx.sync(numbersOf);
  return idx;
}

/** The graph as the session last brought it up to date, without updating it (positions may be a few edits old). */
export function lastDependencyIndex(ws: Workspace): DependencyIndex | undefined {
  const idx = indexes.get(ws);
  return idx?.built ? idx : undefined;
}

/** The graph only when it holds every document's current version already (nothing is read or resolved). */
export function currentDependencyIndex(ws: Workspace): DependencyIndex | undefined {
  const idx = indexes.get(ws);
  return idx?.isCurrent() ? idx : undefined;
}

/** Advances whenever the workspace's graph changes (-1 before it exists). */
export function dependencyGraphVersion(ws: Workspace): number {
  return indexes.get(ws)?.version ?? -1;
}

/** Advances whenever what the workspace's graph says changes, not where (-1 before it exists). */
export function dependencyGraphMeaning(ws: Workspace): number {
  return indexes.get(ws)?.meaningVersion ?? -1;
}

/** Whether the workspace's graph has been built once. */
export function dependencyGraphBuilt(ws: Workspace): boolean {
  return !!indexes.get(ws)?.built;
}

function indexOf(ws: Workspace, numbersOf?: NumbersOf): DependencyIndex {
  let idx = indexes.get(ws);
  if (!idx) indexes.set(ws, idx = new DependencyIndex(ws, numbersOf));
  return idx;
}

/** Builds or updates the workspace's graph a document at a time (`yield` between): for `runInTurns`. */
export function dependencySteps(ws: Workspace, numbersOf?: NumbersOf): Generator<void, void> {
  return indexOf(ws, numbersOf).syncSteps(numbersOf);
}
