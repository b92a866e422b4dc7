// What rests on what, where the author reads: a lens on each statement head ("uses 3 · used
// by 5") and one line in the hover of a statement's head, with the results named by number.
import type { CodeLens } from 'vscode-languageserver-types';
import type { Doc, Workspace } from '../../project/workspace.js';
import { SHOW_DEPENDENCY_GRAPH_COMMAND } from '../../ext/protocol.js';
import type { DependencyIndex, DepNode } from '../../analysis/dependencies/dependencyGraph.js';
import { builtGraphOf, distinctTargets, numberedKind } from './graphNames.js';

/** "uses 3 · used by 5" on each statement head; a client with the graph view opens it there on a click. */
export function dependencyLenses(ws: Workspace, doc: Doc, opts: { graphView: boolean }): CodeLens[] {
  const g = builtGraphOf(ws, 'last');
  if (!g) return [];
  return g.nodesIn(doc).map((n) => {
    const { uses, usedBy } = counts(g, n);
    const position = doc.positionAt(n.su.st.env.start);
    const title = `uses ${uses} · used by ${usedBy}`;
    return {
      range: { start: position, end: position },
      command: opts.graphView
        ? { title, command: SHOW_DEPENDENCY_GRAPH_COMMAND, arguments: [{ uri: doc.uri, position }] }
        : { title, command: '' },
    };
  });
}

function counts(g: DependencyIndex, n: DepNode): { uses: number; usedBy: number } {
  return { uses: distinctTargets(g.uses(n.key), 'to').length, usedBy: distinctTargets(g.usedBy(n.key), 'from').length };
}

/** Names shown in a hover line before "and N more". */
const SHOWN = 4;

/** "Uses Lemma 3.1, Theorem 2.4 · used by Corollary 3.5 and 4 more", for the statement at `offset`; undefined outside statements. */
export function dependencyLine(ws: Workspace, doc: Doc, offset: number): string | undefined {
  const g = builtGraphOf(ws, 'current');
  if (!g) return undefined;
  const n = g.nodeAt(doc, offset);
  if (!n) return undefined;
  const list = (keys: string[]) => {
    const names = keys.slice(0, SHOWN).map((k) => g.node(k)).filter((x): x is DepNode => !!x).map((x) => numberedKind(g, x));
    return keys.length > SHOWN ? `${names.join(', ')} and ${keys.length - SHOWN} more` : names.join(', ');
  };
  const uses = distinctTargets(g.uses(n.key), 'to').map((t) => t.key);
  const usedBy = distinctTargets(g.usedBy(n.key), 'from').map((t) => t.key);
  const a = uses.length ? `Uses ${list(uses)}` : 'Uses nothing of this project';
  const b = usedBy.length ? `used by ${list(usedBy)}` : 'used by nothing yet';
  return `*${a} · ${b}*`;
}
