// The dependency-graph requests: call hierarchy (what a statement uses, what uses it) and
// MathSense's graph request for the graph view. The graph and its rules are in
// analysis/dependencies/; what each request shows is in dependencies/.
import type { CallHierarchyIncomingCall, CallHierarchyItem, CallHierarchyOutgoingCall, Position } from 'vscode-languageserver-types';
import type { DependencyGraphParams, DependencyGraphResponse } from '../ext/protocol.js';
import type { FeatureContext } from './context.js';
import { incomingCalls, outgoingCalls, prepareCallHierarchy } from './dependencies/callHierarchy.js';
import { dependencyGraph } from './dependencies/graphView.js';

export function callHierarchyAt(ctx: FeatureContext, uri: string, position: Position): CallHierarchyItem[] | null {
  const doc = ctx.ws.get(uri);
  return doc ? prepareCallHierarchy(ctx.ws, doc, doc.offsetAt(position), (d) => ctx.numbers(d)) : null;
}

export function incomingCallsOf(ctx: FeatureContext, item: CallHierarchyItem): CallHierarchyIncomingCall[] {
  return incomingCalls(ctx.ws, item, (d) => ctx.numbers(d));
}

export function outgoingCallsOf(ctx: FeatureContext, item: CallHierarchyItem): CallHierarchyOutgoingCall[] {
  return outgoingCalls(ctx.ws, item, (d) => ctx.numbers(d));
}

export function dependencyGraphFor(ctx: FeatureContext, p: DependencyGraphParams): DependencyGraphResponse {
  const doc = ctx.ws.get(p.uri);
  if (!doc) return { nodes: [], edges: [], blueprint: false, message: 'This document is not open in MathSense.' };
  return dependencyGraph(ctx.ws, {
    doc, scope: p.scope === 'whole' ? 'whole' : 'neighbourhood', depth: p.depth,
    offset: p.position ? doc.offsetAt(p.position) : undefined,
    index: ctx.index, mayUseThreshold: typeof p.mayUseThreshold === 'number' ? p.mayUseThreshold : undefined,
  }, (d) => ctx.numbers(d));
}
