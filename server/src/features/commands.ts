// The commands the server executes (`workspace/executeCommand`), each parsed and answered by
// its feature: search, related equations, results to cite, candidate proofs. Arguments a
// command cannot use are a CommandError (the caller's mistake, told to the client); a related-
// equations search answers its own problems in the response, as the lens and panel show them.
import {
  CANDIDATE_PROOFS_COMMAND, FIND_RELATED_COMMAND, SEARCH_COMMAND, SUGGEST_CITATIONS_COMMAND,
  type RelatedResponse, type SearchResponse, type ShowResultsArgs,
} from '../ext/protocol.js';
import type { FeatureContext } from './context.js';
import { LENS_WAIT_MS } from './codeLenses.js';
import { equationAt } from '../analysis/equationSites.js';
import { withCounted } from './equations/equationLenses.js';
import { citeResults } from './index/resultsToCite.js';
import { proofResults } from './index/candidateProofs.js';
import { emptyResponse, findRelatedEquations, parseFindArgs } from './equations/relatedEquations.js';
import { parseSearchArgs, searchEquations, searchStatements } from './index/search.js';

export class CommandError extends Error {}

export type CommandResult = RelatedResponse | ShowResultsArgs | SearchResponse | null;

/** Runs a server command; null for a command this server does not know. */
export async function executeCommand(ctx: FeatureContext, command: string, args: readonly unknown[] | undefined): Promise<CommandResult> {
  switch (command) {
    case SEARCH_COMMAND: {
      const a = parseSearchArgs(args);
      if ('error' in a) throw new CommandError(`${SEARCH_COMMAND}: ${a.error}`);
      if (a.kind === 'equation') return searchEquations(await ctx.related(), a.query, a.limit);
      await ctx.index.load();
      return searchStatements(ctx.ws, ctx.index, a.query, a.kind, a.limit);
    }
    case SUGGEST_CITATIONS_COMMAND:
    case CANDIDATE_PROOFS_COMMAND: {
      const a = parseFindArgs(args);
      const doc = 'uri' in a ? ctx.ws.get(a.uri) : undefined;
      if (!doc || !('position' in a)) throw new CommandError(`${command}: expected {uri, position} of an open document`);
      await ctx.index.load();
      const at = doc.offsetAt(a.position);
      return (command === SUGGEST_CITATIONS_COMMAND ? citeResults(ctx.ws, doc, at, ctx.index) : proofResults(ctx.ws, doc, at, ctx.index)) ?? null;
    }
    case FIND_RELATED_COMMAND:
      return findRelated(ctx, args);
    default:
      return null;
  }
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
