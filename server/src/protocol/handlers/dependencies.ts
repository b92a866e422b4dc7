import type { Connection } from 'vscode-languageserver/node';
import { DEPENDENCY_GRAPH_REQUEST, type DependencyGraphParams, type DependencyGraphResponse } from '../../ext/protocol.js';
import { callHierarchyAt, dependencyGraphFor, incomingCallsOf, outgoingCallsOf } from '../../features/dependencies.js';
import type { Session } from '../../session/session.js';

export function registerDependencies(c: Connection, s: Session): void {
  c.languages.callHierarchy.onPrepare((p) => s.guard('prepareCallHierarchy', null, () => callHierarchyAt(s, p.textDocument.uri, p.position)));
  c.languages.callHierarchy.onIncomingCalls((p) => s.guard('callHierarchy/incomingCalls', [], () => incomingCallsOf(s, p.item)));
  c.languages.callHierarchy.onOutgoingCalls((p) => s.guard('callHierarchy/outgoingCalls', [], () => outgoingCallsOf(s, p.item)));
  c.onRequest(DEPENDENCY_GRAPH_REQUEST, (p: DependencyGraphParams) => s.guard<DependencyGraphResponse>('dependencyGraph', { nodes: [], edges: [], blueprint: false },
    () => (p && typeof p.uri === 'string' ? dependencyGraphFor(s, p) : { nodes: [], edges: [], blueprint: false, message: 'mathsense/dependencyGraph: no document given' })));
}
