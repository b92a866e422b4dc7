// A FeatureContext for tests: the workspace of a fixture with the services a running server
// would have, minus the ones that need files outside it (the bundled index stays unloaded, so
// index features contribute nothing; no derivation steps unless given). Feature entry points
// run on it exactly as the server runs them; a failing part throws instead of being logged.
import type { Doc, Workspace } from '../project/workspace.js';
import { AuxStore } from '../project/auxNumbers.js';
import type { DocStep } from '../math/service.js';
import { ServerIndex } from '../index/serverIndex.js';
import type { FeatureContext, FeatureSettings } from '../features/context.js';
import { parseSettings } from '../session/settings.js';
import { MatchCache } from '../index/matchCache.js';
import { SOURCE_MATH, type HoverMath } from '../features/presentation/hoverMath.js';
import type { RelatedContext } from '../features/equations/relatedEquations.js';
import { guards } from '../util/guard.js';
import { ServerLibrary } from '../index/library/serverLibrary.js';

/** What a server with no settings from its client uses. */
export const DEFAULT_FEATURE_SETTINGS: FeatureSettings = parseSettings(undefined);

export interface TestContextOptions {
  settings?: Partial<FeatureSettings>;
  steps?: (doc: Doc) => readonly DocStep[];
  hoverMath?: HoverMath;
  resultsPanel?: boolean;
  related?: () => Promise<RelatedContext>;
  versionedEdits?: boolean;
  library?: ServerLibrary;
  applyEdit?: FeatureContext['applyEdit'];
}

/** A library service that serves nothing and never reads the user's list. */
export function emptyLibrary(): ServerLibrary {
  return new ServerLibrary({ log: () => {}, tokenizer: () => undefined, encoder: async () => undefined, progress: async () => undefined, changed: () => {}, recorded: () => [] });
}

export function testContext(ws: Workspace, opts: TestContextOptions = {}): FeatureContext {
  const { guard, guardAsync } = guards(() => {}, () => true);
  const settings = { ...DEFAULT_FEATURE_SETTINGS, ...opts.settings };
  const aux = new AuxStore();
  return {
    ws,
    index: new ServerIndex(() => {}, () => ({}), async () => undefined),
    guard,
    guardAsync,
    settingsFor: () => settings,
    numbers: (doc) => aux.numbers(ws, doc),
    steps: opts.steps ?? (() => []),
    hoverMath: () => opts.hoverMath ?? SOURCE_MATH,
    resultsPanel: opts.resultsPanel ?? false,
    related: opts.related ?? (() => Promise.reject(new Error('no related-equations context in this test'))),
    lensMatches: new MatchCache(),
    lensRefresh: false,
    versionedEdits: opts.versionedEdits ?? false,
    completionEditRange: false,
    warmEquations: () => {},
    library: opts.library ?? emptyLibrary(),
    applyEdit: opts.applyEdit ?? (async () => false),
  };
}
