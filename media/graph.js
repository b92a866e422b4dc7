// MathSense dependency graph (webview side). Receives {graph} (mathsense/dependencyGraph's
// response) from the extension, lays it out (dist/media/graphLayout.js: dagre for a
// neighbourhood, layers for a whole document), and draws the statements as boxes over an SVG of
// arrows (from a result to what it uses). Titles and the statement under the pointer are typeset
// with KaTeX; pan by dragging, zoom with the wheel; a click asks the extension to open the
// statement. Colours say the status (blueprint marks, or proved/stated/cited). No network, no eval.
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const stage = document.getElementById('stage');
  const canvas = document.getElementById('canvas');
  const summary = document.getElementById('summary');
  const pane = document.getElementById('pane');
  const showMayUse = document.getElementById('mayuse');
  const NODE_W = 180, NODE_H = 46;
  let graph;
  let view = { x: 0, y: 0, k: 1 };

  /** Titles and statements as LaTeX (media/latex.js): text, inline and display math typeset. */
  function typeset(el, text) {
    el.textContent = '';
    window.MathSenseLatex.renderLatex(el, text, (message) => vscode.postMessage({ type: 'error', message }));
  }

  function statusClass(n) {
    if (graph.blueprint && n.blueprint) {
      const b = n.blueprint;
      const cls = [];
      if (b.mathlib) cls.push('mathlib');
      else if (b.proofDone) cls.push('proof-done');
      else if (b.statementDone && b.proofReady) cls.push('proof-ready');
      if (!b.mathlib && b.statementDone) cls.push('statement-done');
      else if (!b.statementDone && b.ready) cls.push('ready');
      if (b.notReady) cls.push('not-ready');
      return cls.join(' ');
    }
    return `status-${n.status}`;
  }

  function apply() { canvas.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.k})`; }

  function draw() {
    canvas.textContent = '';
    const edges = graph.edges.filter((e) => e.kind !== 'suggested' || showMayUse.checked);
    const t0 = performance.now();
    const layout = MathSenseGraphLayout.layoutGraph(graph.nodes.map((n) => ({ id: n.id, width: NODE_W, height: NODE_H })), edges);
    canvas.style.width = `${layout.width}px`;
    canvas.style.height = `${layout.height}px`;
    const svgNS = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(svgNS, 'svg');
    svg.setAttribute('width', String(layout.width));
    svg.setAttribute('height', String(layout.height));
    svg.setAttribute('class', 'edges');
    const defs = document.createElementNS(svgNS, 'defs');
    const marker = document.createElementNS(svgNS, 'marker');
    marker.setAttribute('id', 'arrow'); marker.setAttribute('viewBox', '0 0 10 10'); marker.setAttribute('refX', '10'); marker.setAttribute('refY', '5');
    marker.setAttribute('markerWidth', '6'); marker.setAttribute('markerHeight', '6'); marker.setAttribute('orient', 'auto-start-reverse');
    const tip = document.createElementNS(svgNS, 'path'); tip.setAttribute('d', 'M 0 0 L 10 5 L 0 10 z'); tip.setAttribute('class', 'tip');
    marker.appendChild(tip); defs.appendChild(marker); svg.appendChild(defs);
    for (const e of edges) {
      const a = layout.positions.get(e.from), b = layout.positions.get(e.to);
      if (!a || !b) continue;
      const line = document.createElementNS(svgNS, 'line');
      // from the user's box to the used box's near side
      const down = b.y > a.y;
      line.setAttribute('x1', String(a.x + NODE_W / 2)); line.setAttribute('y1', String(down ? a.y + NODE_H : a.y));
      line.setAttribute('x2', String(b.x + NODE_W / 2)); line.setAttribute('y2', String(down ? b.y : b.y + NODE_H));
      line.setAttribute('class', `edge ${e.kind} ${e.where}`);
      line.setAttribute('marker-end', 'url(#arrow)');
      svg.appendChild(line);
    }
    canvas.appendChild(svg);
    for (const n of graph.nodes) {
      const p = layout.positions.get(n.id);
      if (!p) continue;
      const box = document.createElement('div');
      box.className = `node ${statusClass(n)}${n.external ? ' external' : ''}${n.id === graph.focus ? ' focus' : ''}`;
      box.style.left = `${p.x}px`; box.style.top = `${p.y}px`;
      box.dataset.id = n.id;
      const head = document.createElement('div');
      head.className = 'head';
      head.textContent = `${n.kind}${n.number ? ` ${n.numberFrom === 'counted' ? '≈' : ''}${n.number}` : ''}`;
      box.appendChild(head);
      const title = document.createElement('div');
      title.className = 'title';
      typeset(title, n.title || n.labels[0] || '');
      box.appendChild(title);
      box.addEventListener('click', () => vscode.postMessage({ type: 'open', id: n.id }));
      box.addEventListener('mouseenter', () => showStatement(n));
      canvas.appendChild(box);
    }
    fit(layout);
    // the statuses the legend names: a blueprint's marks, else proved, stated and cited
    document.body.classList.toggle('blueprint', !!graph.blueprint);
    const own = graph.nodes.filter((n) => !n.external);
    const parts = [`${own.length} statements`, `${edges.length} edges`];
    if (graph.blueprint) {
      const done = own.filter((n) => n.blueprint && n.blueprint.statementDone && n.blueprint.proofDone).length;
      const ready = own.filter((n) => n.blueprint && !(n.blueprint.statementDone && n.blueprint.proofDone) && (n.blueprint.statementDone ? n.blueprint.proofReady : n.blueprint.ready)).length;
      parts.push(`${done} done`, `${ready} ready`, `${own.length - done - ready} blocked`);
    }
    if (graph.suggestionsPending) parts.push('may-use suggestions still being computed');
    summary.textContent = parts.join(' · ');
    vscode.postMessage({ type: 'drawn', ms: Math.round(performance.now() - t0), nodes: graph.nodes.length, engine: layout.engine });
  }

  function showStatement(n) {
    pane.textContent = '';
    const h = document.createElement('h3');
    typeset(h, `${n.kind}${n.number ? ` ${n.number}` : ''}${n.title ? ` (${n.title})` : ''}`);
    pane.appendChild(h);
    const meta = document.createElement('p');
    meta.className = 'meta';
    meta.textContent = [n.labels.join(', '), n.status, n.blueprint && n.blueprint.lean ? `Lean: ${n.blueprint.lean.join(', ')}` : ''].filter(Boolean).join(' · ');
    pane.appendChild(meta);
    const body = document.createElement('p');
    typeset(body, n.text);
    pane.appendChild(body);
  }

  /** Below this scale a statement's head cannot be read. */
  const MIN_READABLE = 0.6;

  function fit(layout) {
    const w = stage.clientWidth || 800, h = stage.clientHeight || 600;
    const whole = Math.min(w / layout.width, h / layout.height);
    if (whole >= MIN_READABLE) {
      view.k = Math.min(1.5, whole);
      view.x = (w - layout.width * view.k) / 2; view.y = 10;
    } else {
      // too large to read whole: at a readable size, the statement at the cursor (else the top
      // of the graph) in view; the wheel zooms out, a drag pans
      view.k = MIN_READABLE;
      const f = graph.focus !== undefined ? layout.positions.get(graph.focus) : undefined;
      const cx = f ? f.x + NODE_W / 2 : layout.width / 2;
      view.x = w / 2 - cx * view.k;
      view.y = f ? h / 2 - (f.y + NODE_H / 2) * view.k : 10;
    }
    apply();
  }

  stage.addEventListener('wheel', (ev) => {
    ev.preventDefault();
    const k = Math.min(4, Math.max(0.02, view.k * (ev.deltaY < 0 ? 1.15 : 1 / 1.15)));
    const r = stage.getBoundingClientRect();
    const mx = ev.clientX - r.left, my = ev.clientY - r.top;
    view.x = mx - ((mx - view.x) * k) / view.k; view.y = my - ((my - view.y) * k) / view.k; view.k = k;
    apply();
  }, { passive: false });
  let drag;
  stage.addEventListener('mousedown', (ev) => { if (!ev.target.closest('.node')) drag = { x: ev.clientX - view.x, y: ev.clientY - view.y }; });
  window.addEventListener('mousemove', (ev) => { if (drag) { view.x = ev.clientX - drag.x; view.y = ev.clientY - drag.y; apply(); } });
  window.addEventListener('mouseup', () => { drag = undefined; });
  showMayUse.addEventListener('change', () => { if (graph) draw(); });
  for (const b of document.querySelectorAll('[data-depth]')) b.addEventListener('click', () => vscode.postMessage({ type: 'depth', depth: b.dataset.depth }));

  window.addEventListener('message', (ev) => {
    const m = ev.data;
    if (m && m.type === 'graph') {
      graph = m.graph;
      // "may use" is offered only when the server sent suggestions (none pass its threshold: nothing to toggle)
      showMayUse.parentElement.hidden = !graph.edges.some((e) => e.kind === 'suggested');
      try { draw(); } catch (e) { vscode.postMessage({ type: 'error', message: String(e && e.stack || e) }); }
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
