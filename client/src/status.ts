// The `mathsense/status` response as the client reads it. Every field is optional: servers
// from other issues add fields (embeddings provider, derivation checker, index) over time.
// Pure (unit-tested in test/client/client.test.mjs).

import type { ServerStatus as Reply } from 'mathsense-server/protocol';

export { STATUS_CHANGED, STATUS_REQUEST } from 'mathsense-server/protocol';

/** A status as read: a server of another version may leave fields out. */
export type ServerStatus = Partial<Reply> & { [key: string]: unknown };

const PROVIDER_NAMES: Record<string, string> = { cpu: 'CPU', cuda: 'CUDA', webgpu: 'WebGPU', dml: 'DirectML', coreml: 'CoreML', tensorrt: 'TensorRT' };

/** `cpu` → `CPU`, `webgpu` → `WebGPU`; unknown names are kept. */
export function providerName(p: string): string {
  return PROVIDER_NAMES[p.toLowerCase()] ?? p;
}

export interface StatusView { text: string; tooltip: string; final: boolean; warning: boolean }

/** What the status bar item shows for a status response (or its absence). */
export function statusView(s: ServerStatus | undefined, progress?: { message?: string; percentage?: number }): StatusView {
  if (progress) {
    const pct = progress.percentage !== undefined ? ` ${progress.percentage}%` : '';
    return { text: `$(sync~spin) MathSense${pct}`, tooltip: `MathSense: indexing${progress.message ? ` — ${progress.message}` : ''}`, final: false, warning: false };
  }
  if (!s) return { text: '$(loading~spin) MathSense', tooltip: 'MathSense: starting the language server', final: false, warning: false };
  const lines = [`MathSense ${s.version ?? ''}`.trim()];
  if (s.documents !== undefined) lines.push(`${s.documents} documents indexed`);
  // an untrusted workspace: what its documents include from elsewhere was not read
  const skipped = Array.isArray(s.skippedOutside) ? s.skippedOutside : [];
  if (skipped.length) {
    lines.push(`Not read (outside the workspace, which is not trusted): ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ` and ${skipped.length - 5} more` : ''}`);
  }
  const ix = s.index;
  if (ix?.state === 'ready') {
    lines.push(`Index: ${ix.entries ?? '?'} entries${ix.semantic === false ? ' (keyword search only)' : ix.semantic === true ? ' (semantic ranking)' : ' (semantic ranking once the model has loaded)'}`);
    if (ix.relevance) lines.push(ix.relevance.calibrated ? 'Index suggestions: shown only when likely relevant' : `Index suggestions shown as ranked (${ix.relevance.problem ?? 'no relevance model'})`);
  } else if (ix?.state === 'unavailable') lines.push(`Index unavailable: ${ix.message ?? 'unknown reason'}`);
  else if (ix?.state === 'loading') lines.push('Loading the index…');
  for (const l of s.library ?? []) {
    lines.push(l.state === 'ready' ? `Library ${l.folder}: ${l.papers} papers, ${l.entries} entries${l.vectors ? '' : ' (keyword search only)'}` : l.state === 'indexing' ? `Library ${l.folder}: indexing…` : `Library ${l.folder}: unavailable (${l.problem ?? 'unknown reason'})`);
  }
  // final once the index, too, has settled: loaded with its ranking known, or unavailable
  const indexSettled = !ix || ix.state === 'unavailable' || ix.state === 'idle' || (ix.state === 'ready' && ix.semantic !== undefined);
  const e = s.embeddings;
  if (!e) return { text: '$(symbol-operator) MathSense', tooltip: lines.join('\n'), final: indexSettled, warning: false };
  if (e.state === 'ready' && e.provider) {
    lines.push(`Model ${e.modelVersion ?? ''} on ${providerName(e.provider)} (setting: ${e.accelerator ?? 'auto'})`.replace(/\s+/g, ' '));
    for (const f of e.fallbacks ?? []) lines.push(`${providerName(f.provider)} skipped: ${f.error}`);
    return { text: `$(symbol-operator) MathSense: ${providerName(e.provider)}`, tooltip: lines.join('\n'), final: indexSettled, warning: false };
  }
  if (e.state === 'unavailable') {
    lines.push(`Model unavailable: ${e.message ?? 'unknown reason'}`);
    return { text: '$(warning) MathSense', tooltip: lines.join('\n'), final: indexSettled, warning: true };
  }
  lines.push('Loading the model…');
  return { text: '$(loading~spin) MathSense', tooltip: lines.join('\n'), final: false, warning: false };
}
