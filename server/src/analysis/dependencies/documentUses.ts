// What one document says about what rests on what, before anything is resolved: its
// theorem-like statements, the proofs it holds and which statement each proves (the proof that
// follows, `\begin{proof}[Proof of Theorem~\ref{x}]`, a blueprint `\proves{x}`), the references
// and blueprint `\uses` inside each statement and proof (the project's own reference macros
// included), the results they name without a reference ("by Lemma 3.2", "by the Cauchy–Schwarz
// inequality") and the blueprint marks. Plain data per document version, so the project's
// graph re-reads only the documents an edit changed.
import type { DocEnv } from '../../model/documentView.js';
import type { Doc, Workspace } from '../../project/workspace.js';
import { documentLabels, isComputedName, macroRefs } from '../../project/userMacros.js';
import { provable } from '../../project/theorems.js';
import { isAside, proofOfLabel, statementBefore, statements, statementSteps, type Statement } from '../structure.js';
import { drain } from '../../util/turns.js';

export type Where = 'statement' | 'proof';

/** A reference or `\uses` key inside a statement or a proof. */
export interface UseSite {
  /** The key as written (an xr prefix included). */
  name: string;
  where: Where;
  /** The key's span. */
  start: number;
  end: number;
  cmd: string;
  /**
   * Said in passing, not as a step of the argument: "as in the proof of Lemma~\ref{x}", "cf.",
   * "compare", a `\pageref`. Still an edge; never the ground of a cycle or order warning.
   */
  weak: boolean;
}

/** A result named without a reference: by its printed number or by its name. */
export interface Mention {
  kind: 'number' | 'name' | 'previous';
  /** number: `lemma 3.2` (kind word lower-cased, then the number); name: the normalized name; previous: the kind word ("the lemma above"). */
  key: string;
  /** A name that ends with its kind word ("the mean value theorem"): only a statement of exactly that name answers, never one named by its first words. */
  whole?: boolean;
  where: Where;
  start: number;
  end: number;
}

export interface BlueprintMarks {
  leanok: boolean;
  proofLeanok: boolean;
  mathlibok: boolean;
  notready: boolean;
  lean: string[];
}

export interface StatementUses {
  st: Statement;
  /** Position among the document's statements. */
  ordinal: number;
  /** Its proofs in this document (a proof elsewhere that names it arrives through that document's `foreign`). */
  proofs: DocEnv[];
  uses: UseSite[];
  mentions: Mention[];
  marks: BlueprintMarks;
  /** The statement or its title cites the literature (`\cite`): a result from outside. */
  cites: boolean;
  provable: boolean;
}

/** A proof of this document for a statement named by a reference (`Proof of Theorem~\ref{x}`, `\proves{x}`) that is not one of its own. */
export interface ForeignProof {
  target: string;
  /**
   * `\proves{x}`: the ordinal of the statement the proof follows, which takes it when `x` is no
   * label of the project (plastexdepgraph falls back so; authors write a Lean name there).
   */
  fallback?: number;
  proof: DocEnv;
  uses: UseSite[];
  mentions: Mention[];
  leanok: boolean;
}

export interface DocumentUses {
  statements: StatementUses[];
  foreign: ForeignProof[];
  /** The document uses blueprint commands (`\uses`, `\leanok`, `\lean`). */
  blueprint: boolean;
  /** Kinds and titles of the statements, and the sections: what statement keys, counted numbers and mentions by name rest on. */
  shape: string;
  /** Every label name the document defines (a statement's, an equation's, a section's). */
  labelNames: ReadonlySet<string>;
  /** Every reference key its statements and proofs write (a proof's target's too). */
  written: ReadonlySet<string>;
  /** Environment index → the statement (ordinal) it is. */
  statementOfEnv: ReadonlyMap<number, number>;
  /** Proof environment index → the statement it proves: an ordinal here, or the label it names elsewhere. */
  proofOfEnv: ReadonlyMap<number, number | string>;
}

const cache = new WeakMap<readonly DocEnv[], { refs: unknown; macroRefs: unknown; stmts: unknown; value: DocumentUses }>();

/** Whether `documentUses` has been read for the document's current views (a cheap look, nothing is built). */
export function documentUsesCurrent(doc: Doc): boolean {
  return lastFor.get(doc.uri)?.doc === doc && lastFor.get(doc.uri)?.version === doc.version;
}
const lastFor = new Map<string, { doc: Doc; version: number }>();

/** A document left out of the graph: no statements. */
export function noUses(doc: Doc): DocumentUses {
  const hit = none.get(doc);
  if (hit?.version === doc.version) return hit.value;
  const value: DocumentUses = { statements: [], foreign: [], blueprint: false, shape: '', labelNames: new Set(), written: new Set(), statementOfEnv: new Map(), proofOfEnv: new Map() };
  none.set(doc, { version: doc.version, value });
  return value;
}
const none = new WeakMap<Doc, { version: number; value: DocumentUses }>();

/** The document's statements and what each uses, as written; kept per document version. */
export function documentUses(ws: Workspace, doc: Doc): DocumentUses {
  return drain(documentUsesSteps(ws, doc));
}

/** Statements, proofs or references read between pauses of `documentUsesSteps`. */
const ITEMS_PER_PAUSE = 256;

/**
 * `documentUses`, pausing (`yield`) while its statements are built and every ITEMS_PER_PAUSE
 * statements, proofs or references read: the graph's re-read of a chapter after a keystroke is
 * background work, and a request waits for one slice of it, not the whole chapter.
 */
export function* documentUsesSteps(ws: Workspace, doc: Doc): Generator<void, DocumentUses> {
  yield* statementSteps(ws, doc);
  const envs = doc.envs();
  const refs = doc.refs();
  const viaMacros = macroRefs(ws, doc);
  const stmts = statements(ws, doc);
  const hit = cache.get(envs);
  if (hit && hit.refs === refs && hit.macroRefs === viaMacros && hit.stmts === stmts) return hit.value;
  const value = yield* readUses(ws, doc, envs, stmts, [...refs, ...viaMacros.filter((r) => !isComputedName(r.name))]);
  cache.set(envs, { refs, macroRefs: viaMacros, stmts, value });
  lastFor.set(doc.uri, { doc, version: doc.version });
  return value;
}

/** What an environment's own text says, by its text (offsets from its body's start): kept from one version of a document to the next. */
interface EnvReading { marks: Omit<BlueprintMarks, 'proofLeanok'>; cites: boolean; mentions: Mention[] }
/** No marks: one object for every environment without any (most of a book's), never changed. */
const NO_MARKS: Omit<BlueprintMarks, 'proofLeanok'> = Object.freeze({ leanok: false, mathlibok: false, notready: false, lean: Object.freeze([]) as unknown as string[] });
/** A statement without marks, nor a marked proof: one object, never changed. */
const UNMARKED: BlueprintMarks = Object.freeze({ ...NO_MARKS, proofLeanok: false });
/** The reading of an environment that says nothing the graph reads: one object, never changed. */
const SAYS_NOTHING: EnvReading = Object.freeze({ marks: NO_MARKS, cites: false, mentions: Object.freeze([]) as unknown as Mention[] });
/**
 * Most statements have no proof here, no reference and no mention: they share one empty list,
 * never changed, and get their own list with their first item (a large project has tens of
 * thousands of statements).
 */
const NONE: readonly never[] = Object.freeze([]);
const emptyList = <T>(): T[] => NONE as unknown as T[];
function appended<T>(list: T[], ...items: T[]): T[] {
  if ((list as unknown) === NONE) return items;
  list.push(...items);
  return list;
}

/** The last version read of each document: its text and its environments' readings by start. */
const readings = new Map<string, { text: string; byStart: Map<number, EnvReading> }>();

/** How many characters at the start and at the end two versions share. */
export function sameAround(a: string, b: string): { prefix: number; suffix: number } {
  const n = Math.min(a.length, b.length);
  // a chunk at a time (compared natively), then character by character
  const CHUNK = 4096;
  let prefix = 0;
  while (prefix + CHUNK <= n && a.slice(prefix, prefix + CHUNK) === b.slice(prefix, prefix + CHUNK)) prefix += CHUNK;
  while (prefix < n && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix + CHUNK <= n - prefix && a.slice(a.length - suffix - CHUNK, a.length - suffix) === b.slice(b.length - suffix - CHUNK, b.length - suffix)) suffix += CHUNK;
  while (suffix < n - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)) suffix++;
  return { prefix, suffix };
}

const PROOF_ENVS = /^(proof|pf|prf|proof\*|demo|demostracion|beweis|preuve|dem)$/;
const PAGE_REFS = /pageref|cpageref|Cpageref|vpageref|cpagerefrange|Cpagerefrange/;

function* readUses(ws: Workspace, doc: Doc, envs: readonly DocEnv[], stmts: readonly Statement[], refs: ReadonlyArray<{ name: string; start: number; end: number; cmd: string; cmdStart: number }>): Generator<void, DocumentUses> {
  let read = 0;
  const pause = () => ++read % ITEMS_PER_PAUSE === 0;
  const text = doc.latexText;
  const registry = ws.theorems(doc);
  const byEnv = new Map<number, StatementUses>();
  const out: StatementUses[] = stmts.map((st, ordinal) => {
    const su: StatementUses = {
      st, ordinal, proofs: emptyList<DocEnv>(), uses: emptyList<UseSite>(), mentions: emptyList<Mention>(), marks: UNMARKED,
      cites: false, provable: provable(st.kind, (e) => registry.get(e)),
    };
    byEnv.set(st.index, su);
    return su;
  });
  // each proof: the statement it proves, here (by index) or elsewhere (by label)
  const proofOf = new Map<number, StatementUses | { target: string }>();
  const provesRefs = refs.filter((r) => r.cmd === 'proves');
  const byLabel = new Map<string, StatementUses>();
  for (const su of out) for (const l of su.st.labels) if (!byLabel.has(l.name)) byLabel.set(l.name, su);
  const proofIndex = new Map<DocEnv, number>();
  // in a blueprint the proof belongs to the theorem-like environment just before it, whatever its
  // kind, as plastexdepgraph attaches it (a remark there takes it: authors then write \proves)
  const blueprintRules = refs.some((r) => r.cmd === 'uses' || r.cmd === 'proves') || blueprintMarked(text);
  const fallbacks = new Map<number, number>();
  for (let i = 0; i < envs.length; i++) {
    if (pause()) yield;
    if (!PROOF_ENVS.test(envs[i].name)) continue;
    const proof = envs[i];
    proofIndex.set(proof, i);
    const proves = provesRefs.length ? provesRefs.find((r) => r.start > proof.bodyStart && r.end <= proof.bodyEnd) : undefined;
    const named = proves?.name ?? proofOfLabel(text, proof);
    let target: StatementUses | { target: string } | undefined;
    if (named !== undefined) {
      const local = byLabel.get(named);
      target = local ?? { target: named };
      const prev = proves && !local ? adjacentStatement(envs, i, byEnv, blueprintRules) : undefined;
      if (prev) fallbacks.set(i, prev.ordinal);
    } else {
      const prev = adjacentStatement(envs, i, byEnv, blueprintRules);
      if (prev) target = prev;
    }
    if (!target) continue;
    proofOf.set(i, target);
    if ('st' in target) target.proofs = appended(target.proofs, proof);
  }
  const foreign = new Map<number, ForeignProof>();
  for (const [i, t] of proofOf) {
    if (!('st' in t)) foreign.set(i, { target: t.target, ...(fallbacks.has(i) ? { fallback: fallbacks.get(i) } : {}), proof: envs[i], uses: [], mentions: [], leanok: false });
  }
  // the innermost statement or attached proof around an offset (offsets asked in increasing order)
  const innermost = sweep(envs);
  const owner = (offset: number): { su?: StatementUses; foreign?: ForeignProof; where: Where } | undefined => {
    for (let i = innermost(offset); i >= 0; i = envs[i].parent) {
      const su = byEnv.get(i);
      if (su) return { su, where: 'statement' };
      const p = proofOf.get(i);
      if (p) return 'st' in p ? { su: p, where: 'proof' } : { foreign: foreign.get(i)!, where: 'proof' };
    }
    return undefined;
  };
  const seen = new Set<string>();
  for (const r of [...refs].sort((a, b) => a.start - b.start)) {
    if (pause()) yield;
    if (r.cmd === 'proves' || !r.name) continue;
    const o = owner(r.start);
    if (!o) continue;
    const key = `${r.start}:${r.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const site: UseSite = { name: r.name, where: o.where, start: r.start, end: r.end, cmd: r.cmd, weak: PAGE_REFS.test(r.cmd) || passing(text, r.cmdStart) };
    const holder = o.su ?? o.foreign!;
    holder.uses = appended(holder.uses, site);
  }
  let blueprint = refs.some((r) => r.cmd === 'uses' || r.cmd === 'proves');
  // marks, citations and mentions, read from each statement's and proof's own text (comments
  // blanked); an environment wholly before or after what changed since the last version read is
  // not read again
  const last = readings.get(doc.uri);
  const unchanged = last ? sameAround(last.text, text) : undefined;
  const now = new Map<number, EnvReading>();
  const reading = (i: number): EnvReading => {
    const env = envs[i];
    let r: EnvReading | undefined;
    if (last && unchanged) {
      const delta = text.length - last.text.length;
      if (env.end <= unchanged.prefix) r = last.byStart.get(env.start);
      else if (env.start >= text.length - unchanged.suffix) r = last.byStart.get(env.start - delta);
    }
    if (!r) {
      const body = ownText(text, envs, i);
      const m = readMarks(body);
      const cites = /\\cite[a-zA-Z]*\*?\s*[[{]/.test(body) || (env.opt !== undefined && /\\cite/.test(text.slice(env.opt.start, env.opt.end)));
      const mentions = mentionsIn(body, 0);
      // an environment that says nothing the graph reads (most of them) shares one reading
      r = m === NO_MARKS && !cites && mentions.length === 0 ? SAYS_NOTHING : { marks: m, cites, mentions };
    }
    now.set(env.start, r);
    return r;
  };
  const placed = (r: EnvReading, env: DocEnv, where: Where): Mention[] => r.mentions.map((m) => ({ ...m, where, start: m.start + env.bodyStart, end: m.end + env.bodyStart }));
  for (const su of out) {
    if (pause()) yield;
    const r = reading(su.st.index);
    const m = r.marks;
    su.cites = r.cites;
    if (r.mentions.length) su.mentions = appended(su.mentions, ...placed(r, su.st.env, 'statement'));
    let proofLeanok = false;
    for (const p of su.proofs) {
      const pr = reading(proofIndex.get(p)!);
      if (pr.marks.leanok) proofLeanok = true;
      if (pr.mentions.length) su.mentions = appended(su.mentions, ...placed(pr, p, 'proof'));
    }
    su.marks = m === NO_MARKS && !proofLeanok ? UNMARKED : { leanok: m.leanok, proofLeanok, mathlibok: m.mathlibok, notready: m.notready, lean: m.lean };
    if (m.leanok || m.mathlibok || m.lean.length) blueprint = true;
  }
  for (const [i, f] of foreign) {
    const pr = reading(i);
    f.leanok = pr.marks.leanok;
    f.mentions.push(...placed(pr, envs[i], 'proof'));
  }
  readings.set(doc.uri, { text, byStart: now });
  // what mentions elsewhere resolve against, and what counted numbers rest on (sections too)
  const shape = out.map((su) => `${su.st.kind.env}|${su.st.title ?? ''}`).join('\n')
    + `\n${doc.sections().map((s) => `${s.level}${s.starred ? '*' : ''}`).join(',')}`;
  const statementOfEnv = new Map(out.map((su) => [su.st.index, su.ordinal]));
  const proofOfEnv = new Map([...proofOf].map(([i, t]) => [i, 'st' in t ? t.ordinal : t.target] as [number, number | string]));
  const written = new Set<string>();
  for (const su of out) for (const u of su.uses) written.add(u.name);
  for (const f of foreign.values()) { written.add(f.target); for (const u of f.uses) written.add(u.name); }
  return { statements: out, foreign: [...foreign.values()], blueprint, shape, labelNames: new Set(documentLabels(ws, doc).map((l) => l.name)), written, statementOfEnv, proofOfEnv };
}

/**
 * The innermost environment around each offset, asked in increasing order: one pass over the
 * environments instead of a search from the start per offset.
 */
function sweep(envs: readonly DocEnv[]): (offset: number) => number {
  let next = 0;
  const open: number[] = [];
  const inside = (e: DocEnv, offset: number) => offset < e.end || (!e.closed && offset <= e.end);
  return (offset) => {
    while (next < envs.length && envs[next].start <= offset) open.push(next++);
    while (open.length && !inside(envs[open[open.length - 1]], offset)) open.pop();
    // an environment that ended with a later one still open below it (unbalanced input)
    for (let k = open.length - 1; k >= 0; k--) if (inside(envs[open[k]], offset)) return open[k];
    return -1;
  };
}

/** Whether a text may hold blueprint marks: a plain search, before any pattern (the text may be megabytes). */
function mayHoldMarks(text: string): boolean {
  return text.includes('\\lean') || text.includes('\\mathlibok') || text.includes('\\notready');
}

/** Whether the text has blueprint marks (then it follows plastexdepgraph's rules). */
function blueprintMarked(text: string): boolean {
  return mayHoldMarks(text) && /\\(?:leanok|mathlibok|notready|lean\s*\{)/.test(text);
}

/**
 * The statement a proof follows (structure.ts#statementBefore: the rule candidate proofs use
 * too, a remark between them skipped), when proofs are written for it; `blueprint`: the
 * theorem-like environment just before it, whatever its kind.
 */
function adjacentStatement(envs: readonly DocEnv[], proofIndex: number, byEnv: ReadonlyMap<number, StatementUses>, blueprint: boolean): StatementUses | undefined {
  const i = statementBefore(envs, proofIndex, (k) => { const su = byEnv.get(k); return !!su && (blueprint || !isAside(su.st.kind)); }, (k) => PROOF_ENVS.test(envs[k].name));
  const su = i >= 0 ? byEnv.get(i) : undefined;
  return su?.provable ? su : undefined;
}

/** Words just before a reference that make it a mention in passing. */
const PASSING = /(?:\bproofs? of|\b(?:and |which )?(?:thus|hence|therefore|so)|\b(?:prov(?:es|ing|ed)|establish(?:es|ing|ed)?|impl(?:y|ies|ying)|yield(?:s|ing)?|gives?|giving|complet(?:es?|ing)|conclud(?:es?|ing)|finish(?:es|ing))(?: the proof of)?|\bas in|\bsimilar(?:ly)?(?: to)?|\banalog(?:ous(?:ly)?)?(?: to)?|\bcf\.?|\bcompare(?: with)?|\bsee also|\bgenerali[sz]\w*|\bspecial case of|\bconverse (?:of|to)|\bcontrast(?: with)?|\bunlike|\blike|\bin the spirit of)\s*(?:(?:the|a|an)\s+)?(?:[A-Za-z]+[.~ ]?\s*)?$/i;

/** A word PASSING needs, looked for first: most references have none before them. */
const PASSING_WORDS = /proof|as in|simil|analog|cf|compar|see also|generali|special case|convers|contrast|unlike|like|spirit|thus|hence|therefore|so\b|prov|establish|impl|yield|giv|complet|conclud|finish/i;

/** Whether the reference command starting at `at` is a mention in passing (by the words before it in its sentence). */
function passing(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 60), at);
  if (!PASSING_WORDS.test(before)) return false;
  const sentence = before.slice(Math.max(before.lastIndexOf('. '), before.lastIndexOf('\n\n'), -1) + 1);
  return PASSING.test(sentence.replace(/~/g, ' '));
}

/** The text of environment `i` that is its own: nested statements and proofs blanked, comments blanked (offsets kept). */
function ownText(text: string, envs: readonly DocEnv[], i: number): string {
  const env = envs[i];
  let body = text.slice(env.bodyStart, env.bodyEnd);
  for (let j = i + 1; j < envs.length && envs[j].start < env.bodyEnd; j++) {
    const inner = envs[j];
    if (inner.parent !== i) continue;
    if (!PROOF_ENVS.test(inner.name) && !/^(theorem|lemma|proposition|corollary|claim|definition)/i.test(inner.name)) continue;
    const a = inner.start - env.bodyStart, b = Math.min(inner.end, env.bodyEnd) - env.bodyStart;
    body = body.slice(0, a) + ' '.repeat(Math.max(0, b - a)) + body.slice(b);
  }
  return body.replace(/(^|[^\\])%.*$/gm, (m, pre: string) => pre + ' '.repeat(m.length - pre.length));
}

function readMarks(body: string): Omit<BlueprintMarks, 'proofLeanok'> {
  if (!mayHoldMarks(body)) return NO_MARKS;
  const lean: string[] = [];
  for (const m of body.matchAll(/\\lean\s*\{([^{}]*)\}/g)) lean.push(...m[1].split(',').map((s) => s.trim()).filter(Boolean));
  return { leanok: /\\leanok(?![a-zA-Z])/.test(body), mathlibok: /\\mathlibok(?![a-zA-Z])/.test(body), notready: /\\notready(?![a-zA-Z])/.test(body), lean };
}

/** Printed kind names a mention by number may use, with their abbreviations. */
const KIND_WORDS: Record<string, string> = {
  theorem: 'theorem', thm: 'theorem', lemma: 'lemma', lem: 'lemma', proposition: 'proposition', prop: 'proposition',
  corollary: 'corollary', cor: 'corollary', definition: 'definition', def: 'definition', defn: 'definition', claim: 'claim',
};
const NUMBER_MENTION = /\b(Theorem|Thm|Lemma|Lem|Proposition|Prop|Corollary|Cor|Definition|Defn|Def|Claim)\.?(?:~|\s+|\\ )((?:[A-Z]\.)?\d+(?:\.\d+){0,3})(?![.\d]*\d)(?!\s*\()/g;
/** "by the Cauchy–Schwarz inequality", "from Zorn's lemma": a cue, then up to five name words. */
const NAME_MENTION = /\b(?:by|from|using|apply(?:ing)?|via|of|invoke|invoking)\s+(?:the\s+)?((?:[A-Z][\w'’\\{}\-–—]*(?:[\s~]+|(?=[,.;:)]|$))){1,5}(?:theorem|lemma|inequality|principle|formula|criterion|test|property|identity|law|rule)?)/g;

/** "by the mean value theorem", "from the Lebesgue covering lemma": a cue, up to four words, a word that says what kind of result. */
const KIND_NAME_MENTION = /\b(?:by|from|using|apply(?:ing)?|via|of|invoke|invoking)\s+(?:the\s+)?((?:[\w'’\\{}\-–—]+[\s~]+){1,4}?(?:theorem|lemma|inequality|principle|formula|criterion|test|property|identity|law|rule)s?(?:\s+of\s+[A-Za-z][\w'’\-–—]*)?)\b/gi;
/** What a result's name is never: words that place it ("the lemma above") or say nothing. */
const NOT_A_NAME = /^(?:above|below|previous|preceding|following|next|this|that|these|last|first|second|third|main|same|above mentioned|general|usual|standard|key|basic|last mentioned)$/;

/** "the lemma above", "the previous theorem", "the preceding proposition": the nearest such statement before. */
const PREVIOUS_MENTION = /\bthe\s+(?:(?:previous|preceding|last|above)\s+(lemma|theorem|proposition|corollary|claim)|(lemma|theorem|proposition|corollary|claim)\s+above)\b/gi;
/** Link and emphasis commands around a name, blanked so the name reads as text (offsets kept). */
const AROUND_NAMES = /\\hyperlink\s*\{[^{}]*\}\s*\{|\\hyperref\s*\[[^\]]*\]\s*\{|\\(?:emph|textit|textbf|textsl|em)\s*\{/g;

function mentionsIn(text: string, base: number, where: Where = 'statement'): Mention[] {
  const out: Mention[] = [];
  const seen = new Set<number>();
  const body = text.replace(AROUND_NAMES, (m) => ' '.repeat(m.length));
  for (const m of body.matchAll(PREVIOUS_MENTION)) {
    out.push({ kind: 'previous', key: (m[1] ?? m[2]).toLowerCase(), where, start: base + m.index!, end: base + m.index! + m[0].length });
  }
  for (const m of body.matchAll(NUMBER_MENTION)) {
    out.push({ kind: 'number', key: `${KIND_WORDS[m[1].toLowerCase()]} ${m[2]}`, where, start: base + m.index!, end: base + m.index! + m[0].length });
  }
  for (const re of [KIND_NAME_MENTION, NAME_MENTION]) {
    for (const m of body.matchAll(re)) {
      const whole = re === KIND_NAME_MENTION;
      // a name that ends with its kind word is compared whole ("mean value theorem" is not the "mean-value property")
      const bare = normalizeName(m[1]);
      if (bare.length < 4 || NOT_A_NAME.test(bare) || /^(theorem|lemma|proposition|corollary|definition)$/.test(bare)) continue;
      const key = whole ? normalizeName(m[1], true).replace(/s$/, '') : bare;
      const at = m.index! + m[0].indexOf(m[1]);
      if (seen.has(at)) continue;
      seen.add(at);
      out.push({ kind: 'name', key, where, start: base + at, end: base + at + m[1].trimEnd().length, ...(whole ? { whole: true } : {}) });
    }
  }
  return out;
}

/** Words that say what kind of result a name is, dropped so "Cauchy–Schwarz" meets "the Cauchy–Schwarz inequality". */
const GENERIC = /\b(the|theorem|lemma|proposition|corollary|inequality|principle|formula|criterion|test|property|identity|law|rule|s)\b/g;

/** A result's name as mentions and titles are compared: letters only, accents and kind words dropped. */
export function normalizeName(name: string, keepKinds = false): string {
  return name
    .replace(/\\(?:footnote|index|label)\s*\{(?:[^{}]|\{[^{}]*\})*\}/g, ' ')
    .replace(/\\["'`^~=.]\s*\{?([a-zA-Z])\}?/g, '$1')
    .normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    .replace(/[’']s\b/g, '')
    .replace(/--+|[–—-]/g, ' ')
    .replace(/[\\{}$~]/g, ' ')
    .toLowerCase()
    .replace(keepKinds ? /\b(the|s)\b/g : GENERIC, ' ')
    .replace(/[^a-z0-9 ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
