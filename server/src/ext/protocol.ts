// MathSense's own messages on top of LSP: command names, notifications, the status request and
// the shapes of what they carry. The one declaration both sides read: the server's features
// build these values and the VS Code client (client/src) imports the same module through the
// server package's `exports` ("mathsense-server/protocol"). It imports nothing at run time, so
// bundling it into the client brings nothing of the server along.
import type { Position, Range } from 'vscode-languageserver-types';

// ── Commands ──────────────────────────────────────────────────────────────────────────────

/** Server command: related equations for `{uri, position}` or `{latex}` → RelatedResponse. */
export const FIND_RELATED_COMMAND = 'mathsense.findRelatedEquations';
/** Client command a resolved equation lens carries (VS Code: references peek + results panel). */
export const SHOW_RELATED_COMMAND = 'mathsense.showRelatedEquations';
/** Server command: `{query, kind?, limit?}` → SearchResponse. */
export const SEARCH_COMMAND = 'mathsense.search';
/** Server command: results to cite for the statement at `{uri, position}` → ShowResultsArgs. */
export const SUGGEST_CITATIONS_COMMAND = 'mathsense.suggestCitations';
/** Server command: candidate proofs for the statement at `{uri, position}` → ShowResultsArgs. */
export const CANDIDATE_PROOFS_COMMAND = 'mathsense.candidateProofs';
/** Client command (VS Code) a code action runs: asks CANDIDATE_PROOFS_COMMAND, then shows the panel. */
export const SHOW_CANDIDATE_PROOFS_COMMAND = 'mathsense.showCandidateProofs';
/** Client command (VS Code) a code action runs: asks SUGGEST_CITATIONS_COMMAND, then shows the panel. */
export const SHOW_RESULTS_TO_CITE_COMMAND = 'mathsense.showResultsToCite';

/** Server command: `{folder}` recorded in the user's library list and indexed → LibraryIndexResponse. */
export const LIBRARY_ADD_COMMAND = 'mathsense.library.add';
/** Server command: `{folder}` (re-)indexed, only new and changed papers read, with `$/progress` → LibraryIndexResponse. */
export const LIBRARY_INDEX_COMMAND = 'mathsense.library.index';
/** Server command: `{folder}` dropped from the list and its index deleted → LibraryIndexResponse. */
export const LIBRARY_REMOVE_COMMAND = 'mathsense.library.remove';
/** Server command: `{query, kind?, limit?}` over the library alone → SearchResponse. */
export const LIBRARY_SEARCH_COMMAND = 'mathsense.library.search';
/** Server command: InsertCitationArgs → the edit applied through `workspace/applyEdit` → InsertCitationResponse. */
export const INSERT_CITATION_COMMAND = 'mathsense.library.insertCitation';

/** The commands the server executes (`executeCommandProvider`). */
export const SERVER_COMMANDS = [FIND_RELATED_COMMAND, SUGGEST_CITATIONS_COMMAND, CANDIDATE_PROOFS_COMMAND, SEARCH_COMMAND, LIBRARY_ADD_COMMAND, LIBRARY_INDEX_COMMAND, LIBRARY_REMOVE_COMMAND, LIBRARY_SEARCH_COMMAND, INSERT_CITATION_COMMAND] as const;

/**
 * A library result to cite, and where: `uri` and `position` are the place the command was asked
 * from; `at: 'statement'` puts the citation in the optional argument of the statement there
 * (`\begin{theorem}[{\cite[Theorem~3.2]{key}}]`, from a hover), `'cursor'` at the position.
 */
export interface InsertCitationArgs extends LibraryRef { uri: string; position: Position; at: 'statement' | 'cursor' }

/** A result of a library paper: its folder, the paper's root file, and the result's file and line (relative to the folder). */
export interface LibraryRef { folder: string; paper: string; file: string; line: number }

export interface InsertCitationResponse {
  applied: boolean;
  /** What was inserted, and the bibliography entry added or to add (none matched the paper). */
  citation?: string;
  bibtex?: string;
  bibFile?: string;
  message?: string;
}

export interface LibraryIndexResponse { folder: string; papers?: number; entries?: number; added?: number; changed?: number; removed?: number; kept?: number; seconds?: number; message?: string }

export interface LibraryFolderStatus { folder: string; state: 'indexing' | 'ready' | 'unavailable'; papers: number; entries: number; vectors: boolean; problem?: string }

/** Arguments of the commands that act on a place in a document. */
export interface PlaceArgs { uri: string; position: Position }

// ── Notifications and requests ────────────────────────────────────────────────────────────

/** Request (no params) → ServerStatus; answered once the workspace scan and include loading are done. */
export const STATUS_REQUEST = 'mathsense/status';
/** Notification (no params), server → client: what `mathsense/status` answers has changed. */
export const STATUS_CHANGED = 'mathsense/statusChanged';
/** Notification client → server: the editor's text colour changed (svg hover math is drawn in it). */
export const HOVER_MATH_COLOR = 'mathsense/hoverMathColor';
export interface HoverMathColorParams { color: string }

/** `initializationOptions` the VS Code client sends. */
export interface InitializationOptions {
  /** The `mathsense` settings section, for clients that cannot answer workspace/configuration. */
  settings?: unknown;
  /** The client shows results in a panel (SHOW_CANDIDATE_PROOFS_COMMAND, SHOW_RESULTS_TO_CITE_COMMAND). */
  resultsPanel?: boolean;
  mathsense?: {
    /** How hovers show math: "svg" (typeset) or "source" (the default). */
    hoverMath?: 'svg' | 'source';
    hoverMathColor?: string;
  };
  /**
   * false: the workspace is not trusted (VS Code's workspace trust; other editors may say so),
   * and files outside its folders are never read. Absent: trusted.
   */
  trusted?: boolean;
}

// ── Status ────────────────────────────────────────────────────────────────────────────────

export type ServiceState = 'idle' | 'loading' | 'ready' | 'unavailable';

export interface EmbeddingStatus {
  state: ServiceState;
  provider?: string;
  fallbacks?: Array<{ provider: string; error: string }>;
  modelVersion?: string;
  loadMs?: number;
  message?: string;
  cache?: { entries: number; hits: number; misses: number };
}

export interface IndexStatus {
  state: ServiceState;
  path: string;
  entries?: number;
  /** Display equations loaded (related equations). */
  equations?: number;
  bytes?: number;
  loadMs?: number;
  modelVersion?: string;
  /** Whether encoder scores are used (the embedding model matches the index's); absent until the encoder has loaded. */
  semantic?: boolean;
  /** Texts asked for (statements of open documents, queries) whose vectors are not in yet. */
  pendingVectors?: number;
  /** Whether index suggestions abstain below a calibrated relevance (index/relevance.ts), or why not. */
  relevance?: { calibrated: boolean; problem?: string };
  message?: string;
}

export interface FormulaEncoderStatus { state: ServiceState; modelVersion?: string; message?: string }

export interface EquationsStatus {
  sites: number;
  pending: number;
  vectorsPending: number;
  index: number;
  encoder: FormulaEncoderStatus;
}

export interface ServerStatus {
  version: string;
  documents: number;
  blocks: number;
  cache: { hits: number; misses: number };
  rssBytes: number;
  /** The main thread's JavaScript heap and the memory outside it that its objects hold. */
  memory?: { heapUsedBytes: number; externalBytes: number; arrayBuffersBytes: number };
  embeddings: EmbeddingStatus & { accelerator: string };
  index: IndexStatus;
  equations: EquationsStatus;
  /** The author's library: each folder served. */
  library?: LibraryFolderStatus[];
  /** Included files outside the workspace folders that were not read because the workspace is not trusted. */
  skippedOutside?: string[];
}

// ── Results ───────────────────────────────────────────────────────────────────────────────

/** What SUGGEST_CITATIONS_COMMAND and CANDIDATE_PROOFS_COMMAND answer (results to cite, candidate proofs). */
export interface ShowResultsArgs {
  heading: string;
  items: Array<{ title: string; latex: string; detail: string; url?: string; uri?: string; line?: number; label?: string; score: number; cite?: InsertCitationArgs }>;
  /** Indexed results ranked but withheld as unlikely to be relevant (the index abstains below a calibrated probability). */
  withheld?: number;
}

export type SearchKind = 'statement' | 'definition' | 'proof' | 'equation';

export interface SearchItem {
  title: string;
  /** The result's LaTeX (rendered by the client). */
  latex: string;
  /** One line: where it is, or its source and licence. */
  detail: string;
  source: 'workspace' | 'index' | 'library';
  score: number;
  uri?: string;
  range?: Range;
  label?: string;
  url?: string;
  licence?: string;
  /** A library result: how to cite it from the place the search was asked (INSERT_CITATION_COMMAND). */
  cite?: LibraryRef;
}

export interface SearchResponse { query: string; kind: SearchKind; items: SearchItem[]; message?: string }

export type FingerprintMatch = 'equation' | 'identity' | 'side';

/** Why an equation was found: the signals of its score. */
export interface Why {
  fingerprint?: FingerprintMatch;
  /** Cosine of the formula-encoder vectors (absent when either vector is missing). */
  encoder?: number;
  structure: number;
}

export interface RelatedEquation {
  /** The equation as written. */
  latex: string;
  /** The same with the document's (or ProofWiki's) macros expanded, for rendering. */
  display: string;
  score: number;
  why: Why;
  source: 'workspace' | 'index' | 'library';
  /** Confirmed to say the same as the query (equivalence.ts), not only alike. */
  same?: true;
  /** The query's own display in a copy of its file (`slides/`, an old version). */
  copy?: true;
  /** Counted in the lens title ("Same as …", "Also at …", "Close: n"): what the peek opens. */
  counted?: true;
  /** The same display in copies of this hit's file, counted once (workspace hits). */
  copies?: Array<{ uri: string; file: string; line: number; range: Range }>;
  /** Subpages of this hit's page with the same equation (index hits), counted once. */
  pages?: string[];
  /** Workspace and library hits: where (line is 1-based; range is the LSP range of the equation or row, its line's start for a library display). */
  uri?: string;
  file?: string;
  line?: number;
  range?: Range;
  label?: string;
  /** Index hits: the page, its URL and licence line. Library hits: the display's name ("Equation (3.2)"). */
  title?: string;
  url?: string;
  licence?: string;
  /** Library hits: the paper (its title, else its root file). */
  paper?: string;
  /** Library hits: what INSERT_CITATION_COMMAND needs besides the place (a client cites at its cursor). */
  cite?: LibraryRef;
}

/** What FIND_RELATED_COMMAND answers and SHOW_RELATED_COMMAND carries. */
export interface RelatedResponse {
  /** `line` is 1-based; `character` (0-based) is where the display starts on it: asking there finds it again, however it is indented. `after`: where the display ends (a library hit is cited there). */
  query: { latex: string; canonical: string; uri?: string; line?: number; character?: number; label?: string; after?: Position };
  results: RelatedEquation[];
  /** Whether formula-encoder similarities were used. */
  encoder: boolean;
  /** Workspace equations not analysed yet (results may be incomplete). */
  pending: number;
  /** Computed for a lens title (no encoder, positions of then): a client asks again before showing it. */
  provisional?: true;
  message?: string;
}

// ── Dependency graph ──────────────────────────────────────────────────────────────────────

/** Request DependencyGraphParams → DependencyGraphResponse: what rests on what, for the graph view and `mathsense graph`. */
export const DEPENDENCY_GRAPH_REQUEST = 'mathsense/dependencyGraph';
/** Client command (VS Code): the graph view on the neighbourhood of the statement at the cursor. */
export const SHOW_DEPENDENCY_GRAPH_COMMAND = 'mathsense.showDependencyGraph';
/** Client command (VS Code): the graph view on the whole compilation of the active document. */
export const SHOW_WHOLE_DEPENDENCY_GRAPH_COMMAND = 'mathsense.showWholeDependencyGraph';

export interface DependencyGraphParams {
  uri: string;
  /** With `scope: 'neighbourhood'`: the statement at this place (or the statement its proof proves). */
  position?: Position;
  /** 'whole': every statement of the document's compilation; 'neighbourhood': the statement at `position` and what is within `depth` steps of it, both ways. */
  scope: 'whole' | 'neighbourhood';
  /** Steps from the statement in a neighbourhood; 1 when absent. */
  depth?: number;
  /** Evaluation only: the cosine "may use" suggestions are shown from (the server's judged threshold when absent). */
  mayUseThreshold?: number;
}

/**
 * Blueprint (leanblueprint) marks of a statement: `\leanok` in the statement and in its proof,
 * `\mathlibok`, `\notready`; ready = every statement it uses is formalized (`\leanok` or
 * `\mathlibok`), proofReady = every statement its proof uses is.
 */
export interface BlueprintStatus {
  statementDone: boolean;
  proofDone: boolean;
  mathlib: boolean;
  notReady: boolean;
  ready: boolean;
  proofReady: boolean;
  /** `\lean{…}` declarations named. */
  lean?: string[];
}

/** Outside blueprints: proved in the project, stated without a proof here, or cited from outside (a `\cite` in it, or in another document). */
export type ProofStatus = 'proved' | 'stated' | 'cited' | 'definition';

export interface GraphNode {
  /** Stable within one response: the statement's first label, else `file#n`. */
  id: string;
  labels: string[];
  /** "Lemma", "Definition", … */
  kind: string;
  /** As LaTeX prints it: from the `.aux` when there is one, else counted. */
  number?: string;
  numberFrom?: 'aux' | 'counted';
  title?: string;
  uri: string;
  /** The statement's `\begin{…}` line. */
  range: Range;
  /** The statement's text (TeX, without labels and blueprint marks), cut to a few hundred characters; the view typesets it. */
  text: string;
  status: ProofStatus;
  blueprint?: BlueprintStatus;
  /** In a document this compilation reads through xr (`\externaldocument`), not compiled with it. */
  external?: boolean;
}

/**
 * `from` uses `to`. explicit: a `\ref`-like reference (also through the project's macros) or a
 * blueprint `\uses`; byName: "by Lemma 3.2", "by the Cauchy–Schwarz inequality" without a
 * reference, resolved to exactly one statement; suggested: a statement the proof reads close
 * to by meaning and does not cite (a "may use", never mixed with the others).
 */
export interface GraphEdge {
  from: string;
  to: string;
  kind: 'explicit' | 'byName' | 'suggested';
  /** In the statement itself or in its proof. */
  where: 'statement' | 'proof';
  /** A suggested edge's cosine. */
  score?: number;
}

export interface DependencyGraphResponse {
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** The statement the neighbourhood is around. */
  focus?: string;
  /** The document's compilation is a blueprint (it uses `\uses`, `\leanok`, `\lean`). */
  blueprint: boolean;
  /** The root document of the compilation. */
  root?: string;
  /** Set when no statement is at the position, or the document is not LaTeX. */
  message?: string;
  /** "May use" suggestions wait for vectors being computed: ask again shortly for them. */
  suggestionsPending?: boolean;
}
