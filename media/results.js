// MathSense results panel (webview side). Receives {heading, items:[{title, latex, detail,
// hasLocation, link}]} from the extension and renders each item's LaTeX (media/latex.js).
// Clicking an item asks the extension to open its location; clicking its link (a source page)
// asks the extension to open it in the browser. No network from here, no eval.
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const results = document.getElementById('results');
  const heading = document.getElementById('heading');

  const report = (message) => vscode.postMessage({ type: 'error', message });
  const renderLatex = (parent, src) => window.MathSenseLatex.renderLatex(parent, src, report);

  function show(msg) {
    // headings and titles are LaTeX text too (`Theorem (Compactness in $\\mathbb{R}^n$)`)
    heading.replaceChildren();
    renderLatex(heading, msg.heading || '');
    results.replaceChildren();
    if (!msg.items || msg.items.length === 0) {
      const p = document.createElement('p');
      p.className = 'empty';
      p.textContent = 'Nothing found.';
      results.appendChild(p);
      return;
    }
    msg.items.forEach((item, index) => {
      const art = document.createElement('article');
      art.className = 'item';
      const h = document.createElement(item.hasLocation ? 'button' : 'h2');
      h.className = 'title';
      renderLatex(h, item.title || '');
      if (item.hasLocation) {
        h.title = 'Open in the editor';
        h.addEventListener('click', () => vscode.postMessage({ type: 'open', index }));
      }
      art.appendChild(h);
      if (item.link) {
        const a = document.createElement('button');
        a.className = 'link';
        a.textContent = item.link;
        a.title = 'Open the source page in the browser';
        a.addEventListener('click', () => vscode.postMessage({ type: 'openLink', index }));
        art.appendChild(a);
      }
      if (item.canCite) {
        const c = document.createElement('button');
        c.className = 'cite';
        c.textContent = 'Insert citation';
        c.title = 'Cite this result at the cursor (\\cite[Theorem~n]{key}, from your bibliography or a new entry)';
        c.addEventListener('click', () => vscode.postMessage({ type: 'cite', index }));
        art.appendChild(c);
      }
      if (item.detail) {
        const d = document.createElement('div');
        d.className = 'detail';
        d.textContent = item.detail;
        art.appendChild(d);
      }
      const body = document.createElement('div');
      body.className = 'body';
      renderLatex(body, item.latex || '');
      art.appendChild(body);
      results.appendChild(art);
    });
  }

  window.addEventListener('message', (e) => { if (e.data && e.data.type === 'show') show(e.data); });
  vscode.postMessage({ type: 'ready' });
})();
