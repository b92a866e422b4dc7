// MathSense webviews' LaTeX renderer (the results panel and the dependency graph): text is
// escaped and a few text commands are honoured; math ($…$, $$…$$, \(…\), \[…\],
// equation/align/gather/…) is rendered with KaTeX, which builds DOM nodes, so the strict CSP
// needs no inline styles. No network, no eval.
(function () {
  'use strict';
  const DISPLAY_ENVS = {
    equation: null, 'equation*': null, displaymath: null, math: null,
    align: 'aligned', 'align*': 'aligned', flalign: 'aligned', 'flalign*': 'aligned',
    alignat: 'alignedat', 'alignat*': 'alignedat', eqnarray: 'aligned', 'eqnarray*': 'aligned',
    gather: 'gathered', 'gather*': 'gathered', multline: 'gathered', 'multline*': 'gathered',
  };

  function cleanMath(src) {
    return src.replace(/\\label\s*\{[^{}]*\}/g, '').replace(/\\(notag|nonumber|qedhere)\b/g, '').trim();
  }

  /** Splits LaTeX into [{math:boolean, display:boolean, text}] segments. */
  function segments(src) {
    const out = [];
    const re = /\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)|(?<!\\)\$((?:\\.|[^$\\])+?)\$|\\begin\{([a-z]+\*?)\}([\s\S]*?)\\end\{\5\}/g;
    let last = 0;
    let m;
    while ((m = re.exec(src))) {
      if (m[5] !== undefined && !(m[5] in DISPLAY_ENVS)) continue;
      if (m.index > last) out.push({ math: false, text: src.slice(last, m.index) });
      if (m[1] !== undefined) out.push({ math: true, display: true, text: m[1] });
      else if (m[2] !== undefined) out.push({ math: true, display: true, text: m[2] });
      else if (m[3] !== undefined) out.push({ math: true, display: false, text: m[3] });
      else if (m[4] !== undefined) out.push({ math: true, display: false, text: m[4] });
      else {
        const inner = DISPLAY_ENVS[m[5]];
        const body = m[5].startsWith('alignat') ? m[6].replace(/^\s*\{[^{}]*\}/, '') : m[6];
        out.push({ math: true, display: true, text: inner ? `\\begin{${inner}}${body}\\end{${inner}}` : body });
      }
      last = re.lastIndex;
    }
    if (last < src.length) out.push({ math: false, text: src.slice(last) });
    return out;
  }

  /** Renders LaTeX text mode (outside math) into `parent`: a handful of commands, the rest verbatim. */
  function renderText(parent, text) {
    text = text.replace(/(^|[^\\])%[^\n]*/g, '$1');
    const re = /\\(emph|textit|textbf|textsc|texttt|text)\s*\{([^{}]*)\}|\\([A-Za-z]*ref|cref|Cref|autoref|nameref|cite[tp]?)\*?\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}|~|\\\\|\n\s*\n|\\([%&#_$ {}])/g;
    let last = 0;
    let m;
    const plain = (s) => { if (s) parent.appendChild(document.createTextNode(s.replace(/\s+/g, ' '))); };
    while ((m = re.exec(text))) {
      plain(text.slice(last, m.index));
      if (m[1]) {
        const tag = { emph: 'em', textit: 'em', textbf: 'strong', textsc: 'span', texttt: 'code', text: 'span' }[m[1]];
        const el = document.createElement(tag);
        el.textContent = m[2];
        parent.appendChild(el);
      } else if (m[3]) {
        const el = document.createElement('span');
        el.className = m[3].startsWith('cite') ? 'cite' : 'ref';
        el.textContent = m[3].startsWith('cite') ? `[${m[4]}]` : m[4];
        el.title = `\\${m[3]}{${m[4]}}`;
        parent.appendChild(el);
      } else if (m[0] === '~') plain('\u00a0');
      else if (m[0] === '\\\\') parent.appendChild(document.createElement('br'));
      else if (m[5] !== undefined) plain(m[5]);
      else parent.appendChild(document.createElement('br'));
      last = re.lastIndex;
    }
    plain(text.slice(last));
  }

  /** Renders LaTeX into `parent`; `onError` hears what KaTeX could not render (shown as written). */
  function renderLatex(parent, src, onError) {
    for (const s of segments(src)) {
      if (!s.math) { renderText(parent, s.text); continue; }
      const el = document.createElement(s.display ? 'div' : 'span');
      el.className = s.display ? 'math display' : 'math inline';
      try {
        katex.render(cleanMath(s.text), el, { displayMode: s.display, throwOnError: false, strict: 'ignore', trust: false, output: 'htmlAndMathml' });
      } catch (e) {
        el.textContent = s.text;
        el.classList.add('error');
        if (onError) onError(String(e && e.message || e));
      }
      parent.appendChild(el);
    }
  }

  window.MathSenseLatex = { renderLatex };
})();
