// The commands the server executes (`workspace/executeCommand`), each parsed and answered by
// its feature: search, related equations, results to cite, candidate proofs. Arguments a
// command cannot use are a CommandError (the caller's mistake, told to the client); a related-
// equations search answers its own problems in the response, as the lens and panel show them.
import {
  CANDIDATE_PROOFS_COMMAND, FIND_RELATED_COMMAND, INSERT_CITATION_COMMAND, LIBRARY_ADD_COMMAND, LIBRARY_INDEX_COMMAND,
  LIBRARY_REMOVE_COMMAND, LIBRARY_SEARCH_COMMAND, SEARCH_COMMAND, SUGGEST_CITATIONS_COMMAND,
  type InsertCitationResponse, type LibraryIndexResponse, type RelatedResponse, type SearchResponse, type ShowResultsArgs,
} from '../ext/protocol.js';
import { libraryScope, type FeatureContext } from './context.js';
import { citationEdit, parseInsertCitationArgs } from './citations/insertCitation.js';
import { versioned } from './versionedEdits.js';
import { LENS_WAIT_MS } from './codeLenses.js';
import { equationAt } from '../analysis/equationSites.js';
import { withCounted } from './equations/equationLenses.js';
import { citeResults } from './index/resultsToCite.js';
import { proofResults } from './index/candidateProofs.js';
import { emptyResponse, findRelatedEquations, parseFindArgs } from './equations/relatedEquations.js';
import { librarySearch, parseSearchArgs, searchEquations, searchStatements } from './index/search.js';

export class CommandError extends Error {}

export type CommandResult = RelatedResponse | ShowResultsArgs | SearchResponse | LibraryIndexResponse | InsertCitationResponse | null;

/** Runs a server command; null for a command this server does not know. */
export async function executeCommand(ctx: FeatureContext, command: string, args: readonly unknown[] | undefined): Promise<CommandResult> {
  switch (command) {
    case SEARCH_COMMAND: {
      const a = parseSearchArgs(args);
      if ('error' in a) throw new CommandError(`${SEARCH_COMMAND}: ${a.error}`);
      if (a.kind === 'equation') return searchEquations(await ctx.related(), a.query, a.limit);
      await ctx.index.load();
      return searchStatements(ctx.ws, ctx.index, a.query, a.kind, a.limit, libraryScope(ctx, searchDoc(ctx, args)));
    }
    case LIBRARY_SEARCH_COMMAND: {
      const a = parseSearchArgs(args);
      if ('error' in a) throw new CommandError(`${command}: ${a.error}`);
      await ctx.index.load();
      // every folder served (the settings of all workspace folders and the recorded list)
      const items = librarySearch(ctx.index, { lib: ctx.library }, a.query, a.kind, a.limit);
      return { query: a.query, kind: a.kind, items, ...(ctx.library.has() ? {} : { message: 'no library indexed: name folders in the mathsense.library setting, or run mathsense.library.add' }) };
    }
    case LIBRARY_ADD_COMMAND:
    case LIBRARY_INDEX_COMMAND:
    case LIBRARY_REMOVE_COMMAND: {
      const folder = (args?.[0] as { folder?: unknown } | string | undefined);
      const f = typeof folder === 'string' ? folder : folder?.folder;
      if (typeof f !== 'string' || !f.trim()) throw new CommandError(`${command}: expected {folder}`);
      if (command === LIBRARY_REMOVE_COMMAND) return { folder: f, message: ctx.library.remove(f) ? 'removed; its index deleted' : 'was not in the library; any index of it deleted' };
      const r = command === LIBRARY_ADD_COMMAND ? await ctx.library.add(f) : await ctx.library.index(f);
      return 'problem' in r ? { folder: f, message: r.problem } : { folder: f, papers: r.papers, entries: r.entries, added: r.added, changed: r.changed, removed: r.removed, kept: r.kept, seconds: r.seconds };
    }
    case INSERT_CITATION_COMMAND: {
      const a = parseInsertCitationArgs(args);
      if ('error' in a) throw new CommandError(`${command}: ${a.error}`);
      const { edit, response } = citationEdit(ctx.ws, ctx.library, a);
      if (!edit) return response;
      return { ...response, applied: await ctx.applyEdit(versioned(ctx, edit), 'Insert citation') };
    }
    case SUGGEST_CITATIONS_COMMAND:
    case CANDIDATE_PROOFS_COMMAND: {
      const a = parseFindArgs(args);
      const doc = 'uri' in a ? ctx.ws.get(a.uri) : undefined;
      if (!doc || !('position' in a)) throw new CommandError(`${command}: expected {uri, position} of an open document`);
      await ctx.index.load();
      const at = doc.offsetAt(a.position);
      const library = libraryScope(ctx, doc);
      return (command === SUGGEST_CITATIONS_COMMAND ? citeResults(ctx.ws, doc, at, ctx.index, library) : proofResults(ctx.ws, doc, at, ctx.index, 8, library)) ?? null;
    }
    case FIND_RELATED_COMMAND:
      return findRelated(ctx, args);
    default:
      return null;
  }
}

/** The document a search was asked from (`{uri}` beside the query), whose library folders it reads. */
function searchDoc(ctx: FeatureContext, args: readonly unknown[] | undefined) {
  const uri = (args?.[0] as { uri?: unknown } | undefined)?.uri;
  return typeof uri === 'string' ? ctx.ws.get(uri) : undefined;
}

async function findRelated(ctx: FeatureContext, args: readonly unknown[] | undefined): Promise<RelatedResponse> {
  const a = parseFindArgs(args);
  if ('error' in a) return emptyResponse(`${FIND_RELATED_COMMAND}: ${a.error}`);
  if ('latex' in a) return findRelatedEquations(await ctx.related(), { latex: a.latex }, { waitMs: LENS_WAIT_MS });
  const doc = ctx.ws.get(a.uri);
  if (!doc) return emptyResponse(`${FIND_RELATED_COMMAND}: ${a.uri} is not open or known`);
  const site = equationAt(doc, doc.offsetAt(a.position));
  if (!site) return emptyResponse(`${FIND_RELATED_COMMAND}: no display equation at ${a.position.line + 1}:${a.position.character + 1}`);
  return withCounted(await findRelatedEquations(await ctx.related(), { doc, site }, { waitMs: LENS_WAIT_MS }));
}
