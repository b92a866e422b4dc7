// A large document built a slice at a time has exactly the blocks LatexDocument builds at once,
// starting where the splitter says, on real LaTeX (the Stacks project, the HoTT book and the
// real-world projects in ../shared/data) and on text cut at awkward places.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SlicedBuild } from './slicedBuild.js';
import { LatexDocument } from './latexDocument.js';
import { BlockCache } from '../syntax/blockCache.js';
import { splitAll } from '../syntax/blockSplitter.js';
import { sharedData } from '../testing/paths.js';

function texFiles(dir: string, max: number): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (out.length >= max) return;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p); else if (e.name.endsWith('.tex')) out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

const FILES = [
  ...texFiles(path.join(sharedData, 'latex', 'stacks-project'), 40),
  ...texFiles(path.join(sharedData, 'latex', 'hott-book'), 20),
  ...texFiles(path.join(sharedData, 'latex-wild'), 200),
];

const blocksOf = (bs: ReadonlyArray<{ start: number; end: number; facts: unknown }>) => bs.map((b) => [b.start, b.end, b.facts]);

function sliced(text: string, cache: BlockCache): { blocks: ReturnType<typeof blocksOf>; steps: number } {
  const build = new SlicedBuild(text, cache);
  let steps = 0;
  // a deadline already past: each step builds one look's worth of blocks and stops
  while (!build.step(-1)) {
    steps++;
    assert.ok(build.progress() > 0 && build.progress() < 1);
  }
  assert.equal(build.step(-1), true, 'a finished build stays finished');
  return { blocks: blocksOf(build.blocks()), steps };
}

test('sliced build = LatexDocument built at once, on real files', { skip: FILES.length === 0 && 'no corpus in ../shared/data' }, () => {
  let multi = 0;
  for (const f of FILES) {
    const text = fs.readFileSync(f, 'utf8');
    const cache = new BlockCache();
    const whole = blocksOf(new LatexDocument('file:///x.tex', text, 1, 'latex', cache).blocks());
    const { blocks, steps } = sliced(text, cache);
    assert.deepEqual(blocks, whole, f);
    // LatexDocument builds through SlicedBuild too: the splitter's own list of starts is the independent reference
    assert.deepEqual(blocks.map((b) => b[0]), splitAll(text), f);
    if (steps > 1) multi++;
  }
  assert.ok(multi > 10, 'many files needed several slices');
});

test('sliced build on edge cases: empty text, one block, definitions over blank lines, no trailing newline', () => {
  const cases = [
    '', 'x', '\n\n\n', 'a\n\nb',
    '\\newcommand{\\x}{a\n\nb}\n\nc\n\n'.repeat(40),
    '\\section{A}\n\\section{B}\n'.repeat(50),
    '\\begin{theorem}\n\nx\n\n\\end{theorem}\n\n'.repeat(40) + 'tail',
  ];
  for (const text of cases) {
    const cache = new BlockCache();
    const { blocks } = sliced(text, cache);
    assert.deepEqual(blocks, blocksOf(new LatexDocument('file:///x.tex', text, 1, 'latex', cache).blocks()), JSON.stringify(text.slice(0, 40)));
    assert.deepEqual(blocks.map((b) => b[0]), splitAll(text), JSON.stringify(text.slice(0, 40)));
  }
});

test('a LatexDocument given built blocks is the document built at once', () => {
  const text = '\\begin{theorem}\\label{a}\nx\n\\end{theorem}\n\nSee \\ref{a}.\n';
  const build = new SlicedBuild(text);
  while (!build.step(-1));
  const doc = new LatexDocument('file:///x.tex', text, 3, 'latex', undefined, build.blocks());
  const fresh = new LatexDocument('file:///x.tex', text, 3);
  assert.deepEqual(doc.labels(), fresh.labels());
  assert.deepEqual(doc.refs(), fresh.refs());
  assert.equal(doc.version, 3);
  assert.throws(() => new SlicedBuild('x').blocks(), /before the build is done/);
});

test('views warmed in slices = views built at once, on real files', { skip: FILES.length === 0 && 'no corpus in ../shared/data' }, () => {
  const views = (d: LatexDocument) => ({
    lines: d.lineCount(), labels: d.labels(), labelMap: [...d.labelMap()], envs: d.envs(), refs: d.refs(), cites: d.cites(),
    includes: d.includes(), macros: d.macros(), theoremDefs: d.theoremDefs(), sections: d.sections(), magic: d.magic(), problems: d.problems(),
  });
  let multi = 0;
  for (const f of FILES.slice(0, 80)) {
    const text = fs.readFileSync(f, 'utf8');
    const warmed = new LatexDocument('file:///x.tex', text, 1, 'latex');
    let steps = 1;
    // a deadline already past: each call builds as little as it can
    while (!warmed.warm(-1)) steps++;
    if (steps > 3) multi++;
    assert.deepEqual(views(warmed), views(new LatexDocument('file:///x.tex', text, 1, 'latex')), f);
  }
  assert.ok(multi > 10, 'many files were warmed over several slices');
});

test('a view asked for while it is warmed in slices is finished from where it stopped, and an edit drops the build', () => {
  const text = '\\begin{theorem}\\label{t:a}\nx\n\\end{theorem}\n\n'.repeat(500);
  const doc = new LatexDocument('file:///x.tex', text, 1, 'latex');
  for (let i = 0; i < 3; i++) doc.warm(-1);
  assert.equal(doc.labels().length, 500);
  assert.equal(doc.labelMap().get('t:a')?.length, 500);
  doc.warm(-1);
  doc.applyChanges([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '\\label{t:b}' }], 2);
  while (!doc.warm(-1));
  assert.equal(doc.labels().length, 501);
  assert.equal(doc.labelMap().get('t:b')?.length, 1);
});
