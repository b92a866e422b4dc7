// `npm run test:e2e`: the packaged extension in a real VS Code (code-server 4.100.3 = Code
// 1.100.3), driven through Debian's Chromium with playwright-core. Everything stays on
// 127.0.0.1; nothing is downloaded except code-server itself from the npm registry the first time.
//
//   1. package the .vsix (scripts/package.mjs) and install it into a fresh extensions folder
//   2. serve a copy of test/e2e/fixtures/project with code-server (auth none) and open it
//   3. open chapters/results.tex from the Explorer; then check, each with a screenshot under
//      test-output/e2e/: the Outline lists the theorems; hovering a \ref shows the statement; the
//      status bar item is there (with the model provider when the server has one); a wrong step
//      of an align gets a warning squiggle saying "does not follow" (when the bundled server
//      checks derivations: detected by running its CLI on the fixture); the results panel renders
//      statements with KaTeX; "Suggest Results to Cite" in a proof lists the project's lemmas
//      there; the related-equations code lens ("Same as eq:square in
//      basics.tex") opens the references peek and the results panel. The fixture is compiled
//      with pdflatex first: the \ref hover shows "Lemma 1.3" and typeset formulas, and inlay
//      hints show the numbers (a `\Cref` to a starred problem: "Problem 2.1†", as the PDF prints it); a
//      claim declared under \theoremstyle{definition} and a fact from \declaretheorem[style=remark]
//      get candidate proofs on their heads; the lens above a tab-indented display, one that starts
//      mid-line and one inside a proposition opens its peek;
//      "MathSense: Search Results…" lists a lemma as you type; the library folder of the settings
//      is indexed with progress, a statement it holds shows the paper's theorem with Insert
//      citation on its hover, and a display it holds gets a lens counting it "in your library",
//      whose panel item cites the paper after the display.
//
// Never skips: a missing Chromium or code-server is a failure (code-server is installed on
// demand by test/e2e/setup.mjs). Options: --skip-package (reuse build/*.vsix), --keep (leave the
// workspace and logs), --headed (for debugging on a machine with a display).
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { ensureCodeServer } from './setup.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
process.chdir(root);
const args = new Set(process.argv.slice(2));
const outDir = path.join(root, 'test-output', 'e2e');
const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SLOW = Number(process.env.E2E_TIMEOUT_SCALE || 1); // multiply waits on very slow machines
const T = (ms) => ms * SLOW;

const results = [];
const started = Date.now();
const log = (m) => console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${m}`);

function fail(msg) {
  console.error(`e2e: ${msg}`);
  process.exit(1);
}

// ---------------------------------------------------------------- preflight and packaging
if (!fs.existsSync(chromium)) fail(`Chromium not found at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH)`);
let playwright;
try { playwright = await import('playwright-core'); } catch (e) { fail(`playwright-core is not installed (npm install): ${e.message}`); }
let codeServer;
try { codeServer = ensureCodeServer({ log }); } catch (e) { fail(`code-server setup failed: ${e.message}`); }

fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });
const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8'));
const vsix = path.join(root, 'build', `${manifest.name}-${manifest.version}-${process.platform}-${process.arch}.vsix`);
if (!args.has('--skip-package') || !fs.existsSync(vsix)) {
  log('packaging the extension');
  const r = spawnSync(process.execPath, ['scripts/package.mjs', '--out', vsix], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  fs.writeFileSync(path.join(outDir, 'package.log'), `${r.stdout}\n${r.stderr}`);
  if (r.status !== 0) fail(`npm run package failed (see test-output/e2e/package.log):\n${r.stderr.slice(-2000)}`);
}
log(`vsix: ${path.relative(root, vsix)} (${(fs.statSync(vsix).size / 1048576).toFixed(1)} MiB)`);

// What the bundled server can do, asked through its CLI (the same core the extension runs)
const fixture = path.join(root, 'test', 'e2e', 'fixtures', 'project');
const cli = path.join(root, 'server', 'dist', 'mathsense.cjs');
const check = spawnSync(process.execPath, [cli, 'check', '--format', 'json', fixture], { encoding: 'utf8', timeout: T(120_000) });
let serverDiagnostics = [];
try { serverDiagnostics = JSON.parse(check.stdout); } catch { /* older CLI without json */ }
const derivationExpected = serverDiagnostics.find((d) => d.code === 'derivation-step' && /does not follow/.test(d.message));
const modelsInfo = spawnSync(process.execPath, [cli, 'models', 'info', '--json'], { encoding: 'utf8', timeout: T(120_000) });
let provider;
try { provider = modelsInfo.status === 0 ? JSON.parse(modelsInfo.stdout).provider : undefined; } catch { /* no models command */ }
log(`server: derivation checker ${derivationExpected ? 'present (squiggle will be asserted)' : 'absent (squiggle step skipped)'}; model provider ${provider ?? 'unavailable'}`);

// ---------------------------------------------------------------- workspace, install, serve
const work = path.join(outDir, 'run');
const userData = path.join(work, 'user-data');
const extensions = path.join(work, 'extensions');
const workspace = path.join(work, 'workspace');
fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
fs.mkdirSync(extensions, { recursive: true });
fs.cpSync(fixture, workspace, { recursive: true });
// a real LaTeX run, as LaTeX Workshop would have done: the .aux the numbers come from
for (let i = 0; i < 2; i++) {
  const tex = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'main.tex'], { cwd: workspace, encoding: 'utf8' });
  if (tex.status !== 0) throw new Error(`pdflatex failed on the fixture (install texlive-latex-base, -recommended, -extra): ${(tex.stdout ?? tex.error?.message ?? '').slice(-800)}`);
}
// the author's library: a folder of papers outside the project (an arXiv paper whose theorem
// cited.tex states, and papers enough that indexing them shows its progress for a while)
const libraryDir = path.join(work, 'library');
fs.cpSync(path.join(root, 'test', 'e2e', 'fixtures', 'library'), libraryDir, { recursive: true });
const topics = 'group ring field module ideal prime finite abelian morphism scheme sheaf open closed compact dense continuous measurable bounded linear operator manifold curve surface variety'.split(' ');
for (let k = 0; k < 60; k++) {
  const w = (j, i) => topics[(k * 7 + j * 13 + i * 5) % topics.length];
  let body = `\\documentclass{amsart}\n\\newtheorem{theorem}{Theorem}\n\\title{Notes ${k}}\n\\begin{document}\n`;
  for (let j = 0; j < 6; j++) body += `\\begin{theorem}\\label{t${j}}\nEvery ${w(j, 0)} ${w(j, 1)} of a ${w(j, 2)} ${w(j, 3)} is ${w(j, 4)}.\n\\end{theorem}\n\\begin{proof}\nBy the ${w(j, 5)} property of ${w(j, 6)} objects.\n\\end{proof}\n`;
  fs.mkdirSync(path.join(libraryDir, `notes-${k}`), { recursive: true });
  fs.writeFileSync(path.join(libraryDir, `notes-${k}`, 'main.tex'), `${body}\\end{document}\n`);
}
fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({
  'mathsense.library': [libraryDir],
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.colorTheme': 'Default Dark Modern',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'editor.hover.delay': 200,
  'editor.minimap.enabled': false,
  'window.commandCenter': false,
  'files.associations': { '*.tex': 'latex' },
}, null, 2));

log('installing the vsix into code-server');
const inst = spawnSync(codeServer, ['--install-extension', vsix, '--extensions-dir', extensions, '--user-data-dir', userData], { encoding: 'utf8', timeout: T(180_000) });
fs.writeFileSync(path.join(outDir, 'install.log'), `${inst.stdout}\n${inst.stderr}`);
if (inst.status !== 0 || !/successfully installed/i.test(inst.stdout + inst.stderr)) fail(`--install-extension failed (exit ${inst.status}):\n${inst.stdout}\n${inst.stderr}`);

const port = await new Promise((resolve, reject) => {
  const s = net.createServer();
  s.on('error', reject);
  s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
});
const serverLog = fs.createWriteStream(path.join(outDir, 'code-server.log'));
const cs = spawn(codeServer, [
  '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check',
  '--disable-workspace-trust', '--disable-getting-started-override', '--extensions-dir', extensions, '--user-data-dir', userData, workspace,
], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PASSWORD: undefined, HASHED_PASSWORD: undefined }, detached: true });
cs.stdout.pipe(serverLog);
cs.stderr.pipe(serverLog);
const stopServer = () => { try { process.kill(-cs.pid, 'SIGTERM'); } catch { /* gone */ } };
process.on('exit', stopServer);

async function waitForHttp(url, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cs.exitCode !== null) throw new Error(`code-server exited with ${cs.exitCode} (see test-output/e2e/code-server.log)`);
    try { const r = await fetch(url); if (r.ok) return; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`code-server did not answer on ${url} within ${ms / 1000} s`);
}

// ---------------------------------------------------------------- the browser
let browser;
let page;
async function step(name, fn, { optional = false, essential = false } = {}) {
  const t0 = Date.now();
  log(`step: ${name}`);
  try {
    const detail = await fn();
    results.push({ name, ok: true, ms: Date.now() - t0, detail });
    log(`  ok (${((Date.now() - t0) / 1000).toFixed(1)} s)${detail ? ` — ${detail}` : ''}`);
  } catch (e) {
    results.push({ name, ok: false, ms: Date.now() - t0, error: e.message, optional });
    log(`  FAILED: ${e.message.split('\n')[0]}`);
    if (page) await page.screenshot({ path: path.join(outDir, `failed-${name.replace(/\W+/g, '-')}.png`) }).catch(() => {});
    if (page) await page.content().then((h) => fs.writeFileSync(path.join(outDir, `failed-${name.replace(/\W+/g, '-')}.html`), h)).catch(() => {});
    if (essential) throw new Error(`essential step failed: ${name}`);
  }
}
const shot = (name) => page.screenshot({ path: path.join(outDir, name) });

/** The editor's rendered token whose text is exactly `text` (the injection grammar makes labels tokens). */
const token = (text) => page.locator('.monaco-editor .view-lines span span', { hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).first();

async function runCommand(title) {
  await page.locator('.monaco-editor textarea').first().focus().catch(() => {});
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: T(15_000) });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: T(15_000) });
  await page.keyboard.press('Enter');
}

/** Moves the cursor to the line of results.tex holding `needle` (Go to Line), so that Monaco renders it. */
async function revealInResults(needle) {
  const line = fs.readFileSync(path.join(workspace, 'chapters', 'results.tex'), 'utf8').split('\n').findIndex((l) => l.includes(needle)) + 1;
  if (line < 1) throw new Error(`${needle} is not in results.tex`);
  await page.locator('.monaco-editor textarea').first().focus().catch(() => {});
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await page.waitForTimeout(500);
}

async function openFromExplorer(...parts) {
  const rowOf = (name) => page.locator('.explorer-folders-view').getByRole('treeitem', { name, exact: true }).first();
  for (const [i, name] of parts.entries()) {
    const row = rowOf(name);
    await row.waitFor({ state: 'visible', timeout: T(30_000) });
    const last = i === parts.length - 1;
    for (let attempt = 0; attempt < 5; attempt++) {
      if (last) {
        await row.click();
        if (await page.locator('.tabs-container .tab', { hasText: name }).first().waitFor({ state: 'visible', timeout: T(8_000) }).then(() => true, () => false)) break;
      } else {
        if ((await row.getAttribute('aria-expanded')) === 'true') break;
        await row.click();
        if (await rowOf(parts[i + 1]).waitFor({ state: 'visible', timeout: T(8_000) }).then(() => true, () => false)) break;
      }
    }
  }
  const tab = page.locator('.tabs-container .tab', { hasText: parts[parts.length - 1] }).first();
  await tab.waitFor({ state: 'visible', timeout: T(30_000) });
  // a single click opens a preview tab; pin it so later commands do not replace it
  await tab.dblclick().catch(() => {});
}

let exitCode = 1;
try {
  await waitForHttp(`http://127.0.0.1:${port}/healthz`, T(90_000));
  log(`code-server on 127.0.0.1:${port}`);
  browser = await playwright.chromium.launch({
    executablePath: chromium,
    headless: !args.has('--headed'),
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 });
  // only 127.0.0.1: anything else is blocked and recorded as a failure
  const offHost = [];
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    if (['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol) && u.hostname !== '127.0.0.1') { offHost.push(u.href); return route.abort(); }
    return route.continue();
  });
  page = await context.newPage();
  page.setDefaultTimeout(T(30_000));

  await step('workbench loads with the fixture folder', async () => {
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, { timeout: T(90_000) });
    await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: T(90_000) });
    await page.locator('.explorer-folders-view').waitFor({ state: 'visible', timeout: T(60_000) });
    await shot('00-workbench.png');
  }, { essential: true });

  // the library is indexed once the server starts (when results.tex is opened): the status bar's progress is recorded from now
  await page.evaluate(() => {
    window.__msLibraryProgress = [];
    setInterval(() => {
      const t = document.querySelector('.part.statusbar')?.textContent ?? '';
      if (/indexing library/i.test(t) && window.__msLibraryProgress.length < 20) window.__msLibraryProgress.push(t.replace(/\s+/g, ' ').trim());
    }, 100);
  });

  await step('open chapters/results.tex from the Explorer', async () => {
    await openFromExplorer('chapters', 'results.tex');
    await page.locator('.monaco-editor .view-lines', { hasText: 'Squares of triangular numbers' }).first().waitFor({ timeout: T(30_000) });
  }, { essential: true });

  await step('status bar item is present (with the model provider when available)', async () => {
    const item = page.locator('.statusbar-item', { hasText: 'MathSense' }).first();
    await item.waitFor({ state: 'visible', timeout: T(120_000) });
    let text = '';
    if (provider) {
      const want = { cpu: 'CPU', cuda: 'CUDA', webgpu: 'WebGPU' }[provider] ?? provider;
      await page.locator('.statusbar-item', { hasText: `MathSense: ${want}` }).first().waitFor({ state: 'visible', timeout: T(180_000) });
      text = (await page.locator('.statusbar-item', { hasText: 'MathSense' }).first().innerText()).trim();
    } else {
      text = (await item.innerText()).trim();
    }
    await shot('05-status-bar.png');
    await page.locator('.part.statusbar').screenshot({ path: path.join(outDir, '05-status-bar-strip.png') });
    return `"${text}"`;
  });

  await step('Outline shows the theorems', async () => {
    const header = page.locator('.pane-header', { hasText: /^Outline|OUTLINE/i }).first();
    await header.waitFor({ state: 'visible', timeout: T(30_000) });
    if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
    for (const name of ['Theorem (Squares of triangular numbers)', 'Proposition', 'Section: Results']) {
      await page.locator('.outline-pane .monaco-list-row, .monaco-pane-view .monaco-list-row', { hasText: name }).first()
        .waitFor({ state: 'visible', timeout: T(60_000) });
    }
    await shot('01-outline.png');
    const rows = await page.locator('.outline-pane .monaco-list-row, [id^="workbench.view.explorer"] .monaco-list-row').allInnerTexts().catch(() => []);
    // numbers as the PDF prints them (the .aux of the run above): "Problem 2.1†", never "2.1$^$"
    const problem = rows.map((r) => r.replace(/\s+/g, ' ').trim()).find((r) => /prob:primes/.test(r));
    if (problem && /\$|\^/.test(problem)) throw new Error(`the outline shows the problem's number with its TeX dropped: ${problem}`);
    return rows.filter((r) => /Theorem|Proposition|Results|Problem/.test(r)).map((r) => r.replace(/\s+/g, ' ').trim()).slice(0, 6).join(' | ');
  });

  await step('hover on a \\ref shows the referenced statement', async () => {
    const ref = token('lem:odd');
    await ref.waitFor({ state: 'visible', timeout: T(30_000) });
    const hover = page.locator('.monaco-hover:visible', { hasText: 'Sum of odd numbers' }).first();
    for (let i = 0; i < 6; i++) {
      await page.mouse.move(10, 10);
      await ref.hover();
      if (await hover.waitFor({ state: 'visible', timeout: T(10_000) }).then(() => true, () => false)) break;
    }
    await hover.waitFor({ state: 'visible', timeout: T(5_000) });
    const text = (await hover.innerText()).replace(/\s+/g, ' ');
    if (!/odd/.test(text)) throw new Error(`hover does not show the statement: ${text}`);
    // its number from the last LaTeX run, and its formulas typeset (MathJax SVG images)
    if (!/Lemma 1\.3/.test(text)) throw new Error(`hover does not show the number of the last run: ${text}`);
    const images = await hover.locator('img[src^="data:image/svg+xml"]').count();
    if (images < 1) throw new Error(`no typeset formula in the hover: ${text}`);
    await page.waitForTimeout(500);
    await shot('02-hover-ref.png');
    return `${text.slice(0, 100)} (${images} typeset formula(s))`;
  });

  await step('hover on the head of a claim declared under \\theoremstyle{definition}, and of a fact from \\declaretheorem[style=remark], lists candidate proofs', async () => {
    const seen = [];
    for (const [label, png] of [['clm:powers', '09-candidate-proofs-definition-style.png'], ['fact:powers-sum', '09b-candidate-proofs-declaretheorem.png']]) {
      await page.mouse.move(10, 10);
      await page.keyboard.press('Escape');
      // lenses above statements push the later ones below the fold, where Monaco renders nothing
      await revealInResults(label);
      const head = token(label);
      await head.scrollIntoViewIfNeeded().catch(() => {});
      await head.waitFor({ state: 'visible', timeout: T(30_000) });
      const hover = page.locator('.monaco-hover:visible', { hasText: 'Candidate proofs' }).first();
      for (let i = 0; i < 6; i++) {
        await page.mouse.move(10, 10);
        await head.hover();
        if (await hover.waitFor({ state: 'visible', timeout: T(10_000) }).then(() => true, () => false)) break;
      }
      await hover.waitFor({ state: 'visible', timeout: T(5_000) });
      const text = (await hover.innerText()).replace(/\s+/g, ' ');
      if (!/Proof in this project/.test(text)) throw new Error(`no candidate proof from the project on ${label}: ${text.slice(0, 300)}`);
      await page.waitForTimeout(500);
      await shot(png);
      seen.push(`${label}: ${text.slice(0, 60)}`);
    }
    return seen.join(' | ');
  });

  await step('an inlay hint after \\ref shows the number LaTeX printed', async () => {
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');
    await revealInResults('lem:odd');
    const line = page.locator('.view-line', { hasText: 'lem:odd' }).first();
    const end = Date.now() + T(60_000);
    let text = '';
    while (Date.now() < end) {
      text = (await line.innerText().catch(() => '')).replace(/\s+/g, ' ');
      if (/lem:odd\}\s?1\.3/.test(text)) break;
      await page.waitForTimeout(500);
    }
    if (!/lem:odd\}\s?1\.3/.test(text)) throw new Error(`no number after \\ref{lem:odd}: ${text}`);
    if (!/lem:gauss\}\s?lemma 1\.2/.test(text)) throw new Error(`no "lemma 1.2" after \\cref{lem:gauss}: ${text}`);
    // a starred variant whose \the… holds math and whose name comes from \Crefname: as the PDF prints it
    await revealInResults('is starred');
    const starred = page.locator('.view-line', { hasText: 'is starred' }).first();
    await starred.scrollIntoViewIfNeeded().catch(() => {});
    let printed = '';
    const until = Date.now() + T(30_000);
    while (Date.now() < until) {
      printed = (await starred.innerText().catch(() => '')).replace(/\s+/g, ' ');
      if (/prob:primes\}\s?Problem 2\.1†/.test(printed)) break;
      await page.waitForTimeout(500);
    }
    if (!/prob:primes\}\s?Problem 2\.1†/.test(printed)) throw new Error(`no "Problem 2.1†" after \\Cref{prob:primes}: ${printed}`);
    await shot('08-inlay-numbers.png');
    await revealInResults('\\section{Results}'); // the next steps look at the top of the file
    return `${text.slice(0, 100)} … ${printed}`;
  });

  if (derivationExpected) {
    await step('a wrong derivation step shows a warning squiggle saying "does not follow"', async () => {
      await page.mouse.move(10, 10);
      await page.keyboard.press('Escape');
      const squiggle = page.locator('.monaco-editor .squiggly-warning').first();
      await squiggle.waitFor({ state: 'attached', timeout: T(120_000) });
      const hover = page.locator('.monaco-hover:visible', { hasText: 'does not follow' }).first();
      const box = await squiggle.boundingBox();
      for (let i = 0; i < 6 && box; i++) {
        await page.mouse.move(10, 10);
        await page.mouse.move(box.x + Math.min(box.width / 2, 40), box.y + box.height / 2, { steps: 4 });
        if (await hover.waitFor({ state: 'visible', timeout: T(10_000) }).then(() => true, () => false)) break;
      }
      await hover.waitFor({ state: 'visible', timeout: T(5_000) });
      const text = (await hover.innerText()).replace(/\s+/g, ' ');
      await shot('03-derivation-squiggle.png');
      return text.slice(0, 140);
    });
  } else {
    results.push({ name: 'derivation squiggle', ok: true, skipped: 'the bundled server reports no derivation-step diagnostic for the fixture' });
  }

  await step('results panel renders statements with KaTeX', async () => {
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');
    await token('lem:gauss').click();
    await runCommand('MathSense: Preview Referenced Statement');
    const tab = page.locator('.tabs-container .tab', { hasText: 'MathSense: Preview of lem:gauss' }).first();
    await tab.waitFor({ state: 'visible', timeout: T(60_000) });
    const frameWith = async (selector, ms) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        for (const f of page.frames()) {
          if (await f.locator(selector).count().catch(() => 0)) return f;
        }
        await page.waitForTimeout(500);
      }
      throw new Error(`no webview frame with ${selector}`);
    };
    const frame = await frameWith('.item .katex', T(60_000));
    const title = await frame.locator('.item .title').first().innerText();
    if (!/Lemma/.test(title) || !/Gauss/.test(title)) throw new Error(`unexpected item title ${title}`);
    const display = await frame.locator('.item .katex-display').count();
    if (display < 1) throw new Error('the equation was not rendered in display mode');
    await page.mouse.move(1000, 800);
    await page.waitForTimeout(800); // fonts, tooltips gone
    await shot('04-results-panel-preview.png');
    // the statements of the file, several items
    await page.locator('.tabs-container .tab', { hasText: 'results.tex' }).first().click();
    await runCommand('MathSense: Show Statements in This File');
    await page.locator('.tabs-container .tab', { hasText: 'MathSense: Statements in' }).first().waitFor({ state: 'visible', timeout: T(60_000) });
    const f2 = await frameWith('.item:nth-of-type(2) .katex', T(60_000));
    const n = await f2.locator('.item').count();
    const errors = await f2.locator('.katex-error, .math.error').count();
    if (errors) throw new Error(`${errors} KaTeX errors in the panel`);
    await page.mouse.move(1000, 800);
    await page.waitForTimeout(1500);
    await shot('04-results-panel-statements.png');
    return `preview "${title}", ${display} display equation(s); statements panel: ${n} items`;
  });

  await step('"Suggest Results to Cite" in a proof ranks them when run and shows them in the results panel', async () => {
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');
    await page.locator('.tabs-container .tab', { hasText: 'results.tex' }).first().click();
    // the cursor on the proof's line (By \cref{lem:gauss} …): its statement is the theorem on Nicomachus
    const line = fs.readFileSync(path.join(workspace, 'chapters', 'results.tex'), 'utf8').split('\n').findIndex((l) => l.includes('the cubes tile a square')) + 1;
    await page.locator('.monaco-editor textarea').first().focus().catch(() => {});
    await page.keyboard.press('Control+G');
    await page.keyboard.type(String(line));
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await runCommand('MathSense: Suggest Results to Cite');
    await page.locator('.tabs-container .tab', { hasText: 'MathSense: Results to cite' }).first().waitFor({ state: 'visible', timeout: T(60_000) });
    let frame;
    const end = Date.now() + T(60_000);
    while (!frame && Date.now() < end) {
      for (const f of page.frames()) if (await f.locator('.item .title').count().catch(() => 0)) { frame = f; break; }
      if (!frame) await page.waitForTimeout(500);
    }
    if (!frame) throw new Error('no results panel with results to cite');
    const items = await frame.locator('.item').allInnerTexts();
    if (!items.some((t) => /\\ref\{lem:/.test(t))) throw new Error(`no lemma of the project among the results: ${items.join(' | ').slice(0, 300)}`);
    const errors = await frame.locator('.katex-error, .math.error').count();
    if (errors) throw new Error(`${errors} KaTeX errors in the panel`);
    await page.mouse.move(1000, 800);
    await page.waitForTimeout(1000);
    await shot('05b-results-to-cite.png');
    return `${items.length} results, first: ${items[0].replace(/\s+/g, ' ').slice(0, 80)}`;
  });

  await step('the related-equations lens ("Same as eq:square …") opens the references peek and the results panel', async () => {
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');
    await page.locator('.tabs-container .tab', { hasText: 'results.tex' }).first().click();
    // the lens above the labelled row (x+y)^2 = … (the default `matches` mode: only where there
    // is something to open, titled with it): confirmed the same as eq:square in other letters
    const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: /^Same as eq:square in basics\.tex/ }).first();
    await lens.waitFor({ state: 'visible', timeout: T(120_000) });
    const title = (await lens.innerText()).trim();
    await lens.click();
    const peek = page.locator('.monaco-editor .peekview-widget, .monaco-editor .zone-widget .peekview-title').first();
    await peek.waitFor({ state: 'visible', timeout: T(30_000) });
    const peekText = (await page.locator('.monaco-editor .zone-widget').first().innerText()).replace(/\s+/g, ' ');
    if (!/basics\.tex/.test(peekText)) throw new Error(`the peek does not list basics.tex: ${peekText.slice(0, 200)}`);
    await shot('06-related-equations-peek.png');
    await page.locator('.tabs-container .tab', { hasText: 'MathSense: Related equations' }).first().waitFor({ state: 'visible', timeout: T(30_000) });
    let frame;
    const end = Date.now() + T(60_000);
    while (!frame && Date.now() < end) {
      for (const f of page.frames()) if (await f.locator('.item .katex-display').count().catch(() => 0)) { frame = f; break; }
      if (!frame) await page.waitForTimeout(500);
    }
    if (!frame) throw new Error('no results panel with rendered equations');
    const items = await frame.locator('.item').allInnerTexts();
    if (!items.some((t) => /basics\.tex:\d+ · eq:square/.test(t) && /score \d\.\d\d/.test(t))) throw new Error(`no item for eq:square with its score: ${items.join(' | ').slice(0, 300)}`);
    const errors = await frame.locator('.katex-error, .math.error').count();
    if (errors) throw new Error(`${errors} KaTeX errors in the panel`);
    await page.keyboard.press('Escape');
    await page.mouse.move(1000, 800);
    await page.waitForTimeout(1000);
    await shot('07-related-equations-panel.png');
    return `lens "${title}", peek lists basics.tex, panel: ${items.length} items`;
  });

  await step('the lens above a tab-indented display, one that starts mid-line and one inside a proposition opens the peek at that display', async () => {
    const seen = [];
    for (const [label, target, png] of [['eq:diff-tabbed', 'eq:diff', '10-lens-indented-display.png'], ['eq:cubes-midline', 'eq:cubes-diff', '10b-lens-midline-display.png'], ['eq:cubes-nested', 'eq:cubes-sum', '10c-lens-nested-display.png']]) {
      await page.mouse.move(10, 10);
      await page.keyboard.press('Escape');
      await page.locator('.tabs-container .tab', { hasText: 'results.tex' }).first().click();
      await revealInResults(`\\label{${label}}`);
      await token(label).scrollIntoViewIfNeeded().catch(() => {});
      const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: new RegExp(`${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} in basics\\.tex`) }).first();
      await lens.waitFor({ state: 'visible', timeout: T(120_000) });
      const title = (await lens.innerText()).trim();
      await lens.click();
      const peek = page.locator('.monaco-editor .zone-widget').first();
      await peek.waitFor({ state: 'visible', timeout: T(30_000) });
      const peekText = (await peek.innerText()).replace(/\s+/g, ' ');
      if (!/basics\.tex/.test(peekText)) throw new Error(`the peek of ${label} does not list basics.tex: ${peekText.slice(0, 200)}`);
      await shot(png);
      await page.keyboard.press('Escape');
      await peek.waitFor({ state: 'hidden', timeout: T(10_000) }).catch(() => {});
      seen.push(`${label}: "${title}"`);
    }
    return seen.join(' | ');
  });

  await step('"MathSense: Search Results…" lists the workspace\'s lemma as you type', async () => {
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');
    await page.locator('.tabs-container .tab', { hasText: 'results.tex' }).first().click();
    await runCommand('MathSense: Search Results');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: T(15_000) });
    await input.fill('sum of the first odd numbers is a square');
    const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Lemma' }).first();
    await row.waitFor({ state: 'visible', timeout: T(60_000) });
    const rows = await page.locator('.quick-input-widget .monaco-list-row').allInnerTexts();
    await shot('09-search-results.png');
    await page.keyboard.press('Escape');
    return rows.slice(0, 4).map((r) => r.replace(/\s+/g, ' ').slice(0, 80)).join(' | ');
  });

  await step('the dependency graph view draws the document\'s statements; a click on Lemma (Gauss) arrives at its statement', async () => {
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');
    await page.locator('.tabs-container .tab', { hasText: 'results.tex' }).first().click();
    await runCommand('MathSense: Show dependency graph of the whole document');
    await page.locator('.tabs-container .tab', { hasText: 'MathSense: dependency graph' }).first().waitFor({ state: 'visible', timeout: T(60_000) });
    // the view draws again when the graph is updated (the document's graph is built after a
    // pause): a frame found before may be gone, so each read finds the graph's frame anew
    const graphFrame = async () => {
      for (const end = Date.now() + T(60_000); Date.now() < end; await page.waitForTimeout(500)) {
        for (const f of page.frames()) if (await f.locator('.node').count().catch(() => 0)) return f;
      }
      throw new Error('no webview frame with the graph\'s statements');
    };
    const inGraph = async (read) => {
      for (let i = 0; ; i++) {
        try { return await read(await graphFrame()); } catch (e) { if (i >= 2) throw e; await page.waitForTimeout(1000); }
      }
    };
    const { nodes, edges, summary } = await inGraph(async (f) => ({ nodes: await f.locator('.node').count(), edges: await f.locator('line.edge').count(), summary: await f.locator('#summary').innerText({ timeout: T(10_000) }) }));
    if (edges < 1) throw new Error(`no edges drawn (${summary})`);
    await page.mouse.move(1000, 800);
    await page.waitForTimeout(800);
    await shot('11-dependency-graph.png');
    await inGraph((f) => f.locator('.node', { hasText: 'Gauss' }).first().click({ timeout: T(10_000) }));
    await page.locator('.tabs-container .tab.active', { hasText: 'basics.tex' }).first().waitFor({ state: 'visible', timeout: T(30_000) });
    const at = await page.locator('#status\\.editor\\.selection').first().innerText();
    const line = fs.readFileSync(path.join(workspace, 'chapters', 'basics.tex'), 'utf8').split('\n').findIndex((l) => l.includes('\\label{lem:gauss}')) + 1;
    if (!new RegExp(`Ln ${line}\\b`).test(at)) throw new Error(`the click went to ${at}, not line ${line} of basics.tex`);
    await shot('11-dependency-graph-click.png');
    return `${nodes} statements, ${edges} edges (${summary}); the click arrived at basics.tex ${at}`;
  });

  await step('\\ref{ typed in a proof offers the project\'s results ranked by relevance, not the theorem being proved', async () => {
    await page.mouse.move(10, 10);
    await page.keyboard.press('Escape');
    await page.locator('.tabs-container .tab', { hasText: 'results.tex' }).first().click();
    await revealInResults('the cubes tile a square');
    await page.keyboard.press('End');
    await page.keyboard.type(' See \\ref{', { delay: 30 });
    const widget = page.locator('.suggest-widget.visible');
    if (!(await widget.waitFor({ state: 'visible', timeout: T(15_000) }).then(() => true, () => false))) await page.keyboard.press('Control+Space');
    await widget.waitFor({ state: 'visible', timeout: T(30_000) });
    const rows = widget.locator('.monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: T(30_000) });
    const texts = (await rows.allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
    await shot('10-ref-completion-ranked.png');
    const first = texts[0] ?? '';
    if (!/relevance/.test(first)) throw new Error(`the first item is not ranked by relevance: ${texts.slice(0, 4).join(' | ')}`);
    if (/^(eq:|thm:nicomachus)/.test(first)) throw new Error(`an equation or the theorem being proved comes first: ${texts.slice(0, 4).join(' | ')}`);
    if (!texts.slice(0, 4).some((t) => /^(lem:gauss|lem:odd|def:triangular)/.test(t))) throw new Error(`none of the lemmas on triangular numbers and odd sums in the first four: ${texts.slice(0, 4).join(' | ')}`);
    await page.keyboard.press('Escape');
    return texts.slice(0, 4).join(' | ');
  });

  await step('the library folder of the settings is indexed with progress; the hover on a statement it holds shows the paper\'s Theorem 1.3 with Insert citation, which cites it by the project\'s .bib key', async () => {
    const progress = await page.evaluate(() => window.__msLibraryProgress ?? []);
    if (progress.length === 0) throw new Error('the status bar never showed "MathSense: indexing library"');
    await page.keyboard.press('Escape');
    await openFromExplorer('cited.tex');
    await page.locator('.monaco-editor .view-lines', { hasText: 'convergent subsequence' }).first().waitFor({ timeout: T(30_000) });
    const head = token('thm:bw-cited');
    await head.waitFor({ state: 'visible', timeout: T(30_000) });
    const hover = page.locator('.monaco-hover:visible', { hasText: 'your library' }).first();
    // the statement's vector (and the library, if still indexing) may come after the first hover
    for (let i = 0; i < 12; i++) {
      await page.mouse.move(10, 10);
      await page.keyboard.press('Escape');
      await head.hover();
      if (await hover.waitFor({ state: 'visible', timeout: T(8_000) }).then(() => true, () => false)) break;
      await page.waitForTimeout(1500);
    }
    await hover.waitFor({ state: 'visible', timeout: T(5_000) });
    const text = (await hover.innerText()).replace(/\s+/g, ' ');
    if (!/Theorem 1\.3 \(Bolzano--Weierstrass\)/.test(text) || !/On bounded monotone sequences/.test(text)) throw new Error(`the library result is not named with its paper and number: ${text.slice(0, 400)}`);
    await page.waitForTimeout(500);
    await shot('13-library-hover.png');
    await hover.locator('a', { hasText: 'Insert citation' }).first().click();
    await page.locator('.monaco-editor .view-lines', { hasText: 'cite[Theorem~1.3]{bw21}' }).first().waitFor({ timeout: T(20_000) });
    await page.mouse.move(10, 10);
    await page.waitForTimeout(500);
    await shot('13b-library-cited.png');
    return `progress "${progress[0].slice(0, 80)}"; ${text.slice(0, 120)}`;
  });

  await step('the lens above a display the library paper also has counts it ("in your library"); the panel lists the paper\'s display, whose Insert citation cites the paper after the display', async () => {
    await page.keyboard.press('Escape');
    const lens = page.locator('.monaco-editor .codelens-decoration a', { hasText: /in your library/ }).first();
    await lens.waitFor({ state: 'visible', timeout: T(120_000) });
    const title = (await lens.innerText()).trim();
    await shot('14-library-equation-lens.png');
    await lens.click();
    await page.locator('.tabs-container .tab', { hasText: 'MathSense: Related equations' }).first().waitFor({ state: 'visible', timeout: T(30_000) });
    let frame;
    const end = Date.now() + T(60_000);
    while (!frame && Date.now() < end) {
      for (const f of page.frames()) if (await f.locator('.item', { hasText: 'On bounded monotone sequences' }).count().catch(() => 0)) { frame = f; break; }
      if (!frame) await page.waitForTimeout(500);
    }
    if (!frame) throw new Error('no results panel item for the library paper\'s display');
    const item = frame.locator('.item', { hasText: 'On bounded monotone sequences' }).first();
    const itemText = (await item.innerText()).replace(/\s+/g, ' ');
    if (!/your library · main\.tex:\d+/.test(itemText)) throw new Error(`the library item does not say where it is: ${itemText.slice(0, 200)}`);
    await page.keyboard.press('Escape');
    await shot('14b-library-equation-panel.png');
    await item.locator('button.cite').click();
    await page.locator('.tabs-container .tab', { hasText: 'cited.tex' }).first().click();
    await page.locator('.monaco-editor .view-lines', { hasText: 'end{equation}\\cite{bw21}' }).first().waitFor({ timeout: T(20_000) });
    // the library paper the peek opened is still the library's, not "this project"
    await page.waitForTimeout(3000);
    const lenses = (await page.locator('.monaco-editor .codelens-decoration').allInnerTexts()).join(' | ');
    if (/in this project/.test(lenses)) throw new Error(`the library paper opened by the peek is counted as this project's: ${lenses}`);
    await shot('14c-library-equation-cited.png');
    return `lens "${title}"; panel: ${itemText.slice(0, 100)}; lenses after: ${lenses.slice(0, 80)}`;
  });

  await step('no request left 127.0.0.1', async () => {
    if (offHost.length) throw new Error(`blocked requests to other hosts: ${[...new Set(offHost)].slice(0, 5).join(', ')}`);
  });

  const required = results.filter((r) => !r.ok && !r.optional);
  exitCode = required.length ? 1 : 0;
} catch (e) {
  log(`e2e aborted: ${e.stack ?? e}`);
  results.push({ name: 'harness', ok: false, error: e.message });
  if (page) await page.screenshot({ path: path.join(outDir, 'failed-harness.png') }).catch(() => {});
} finally {
  await browser?.close().catch(() => {});
  stopServer();
}

// the extension's own log from the code-server session (MathSense output channel)
try {
  const logs = path.join(userData, 'logs');
  for (const f of fs.readdirSync(logs, { recursive: true })) if (/MathSense\.log$/.test(String(f))) fs.copyFileSync(path.join(logs, String(f)), path.join(outDir, 'mathsense-output.log'));
} catch { /* no logs */ }
if (!args.has('--keep')) fs.rmSync(work, { recursive: true, force: true });

const report = { passed: results.filter((r) => r.ok && !r.skipped).length, failed: results.filter((r) => !r.ok).length, skipped: results.filter((r) => r.skipped).map((r) => `${r.name}: ${r.skipped}`), derivationAsserted: !!derivationExpected, provider: provider ?? null, results, seconds: Math.round((Date.now() - started) / 1000) };
fs.writeFileSync(path.join(outDir, 'report.json'), JSON.stringify(report, null, 2));
console.log(`\ne2e: ${report.passed} passed, ${report.failed} failed${report.skipped.length ? `, skipped: ${report.skipped.join('; ')}` : ''} (${report.seconds} s; screenshots in test-output/e2e/)`);
process.exit(results.some((r) => !r.ok) ? 1 : exitCode);
