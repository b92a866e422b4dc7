// Fingerprints: collisions for equivalent forms, separation for near misses, renaming
// invariance, equations up to a constant factor, and rates on E-Gen's clusters (evaluation only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Fingerprint, equationFingerprints, expressionFingerprint, sameClass } from './fingerprint.js';
import { analyseEquation } from './equation.js';
import { parsePrefix } from './prefix.js';
import { egenDir, readEgenClusters } from './egenClusters.js';
import { sharedData } from '../../testing/paths.js';
import { type Expr, num, op } from '../expr.js';

const DIR = egenDir(sharedData);
const SKIP = fs.existsSync(DIR) ? false : 'E-Gen data not found';

/** The fingerprint of one expression written in LaTeX (parsed as the checker parses it). */
function fp(latex: string, rename = true): Fingerprint | undefined {
  const info = analyseEquation(latex);
  assert.equal(info.sides.length, 1, `${latex} parses`);
  return expressionFingerprint(info.sides[0], { rename });
}

function same(a: string, b: string, rename = true): boolean {
  const x = fp(a, rename);
  const y = fp(b, rename);
  assert.ok(x && y, `${a} / ${b} have fingerprints`);
  assert.equal(x.key === y.key, sameClass(x, y), `key and sameClass agree on ${a} / ${b}`);
  return x.key === y.key;
}

/** The difference fingerprint of an equation. */
function diff(latex: string): Fingerprint | undefined {
  return analyseEquation(latex).fingerprints.difference;
}

test('fingerprint: equivalent forms collide', () => {
  assert.ok(same('(a+b)^2', 'a^2+2ab+b^2'));
  assert.ok(same('e^{i\\theta}', '\\cos\\theta + i\\sin\\theta'));
  assert.ok(same('\\frac{d}{dx}\\sin x', '\\cos x'));
  assert.ok(same('\\sin^2 t+\\cos^2 t', '1'));
  assert.ok(same('\\frac{x^2-1}{x-1}', 'x+1'));
  assert.ok(same('\\ln(ab)', '\\ln a + \\ln b'));
  assert.ok(same('\\sqrt{x}\\sqrt{y}', '\\sqrt{xy}'));
  assert.ok(same('a + bi', 'bi + a'));
  assert.ok(same('(1+i)^2', '2i'));
  assert.ok(same('x - x + y', 'y'), 'a variable the value does not depend on takes no slot');
});

test('fingerprint: near misses separate', () => {
  assert.ok(!same('(a+b)^2', 'a^2+b^2'));
  assert.ok(!same('\\sin 2x', '2\\sin x'));
  assert.ok(!same('a^2-b^2', 'b^2-a^2', false), 'with names fixed, a^2-b^2 and b^2-a^2 differ');
  assert.ok(!same('a^2-b^2+a', 'b^2-a^2+a'), 'not a renaming of each other');
  assert.ok(!same('e^{i\\theta}', '\\cos\\theta + \\sin\\theta'));
  assert.ok(!same('x^3', 'x^2'));
});

test('fingerprint: invariant to renaming, by design even where that merges x^2-y^2 and y^2-x^2', () => {
  assert.ok(same('(p+q)^2', '(a+b)^2'));
  assert.ok(same('a^2-b^2', 'y^2-x^2'));
  assert.ok(same('x^2-y^2', 'y^2-x^2'));
  assert.ok(same('\\alpha\\beta^2 + \\theta', 'u v^2 + w'));
  assert.ok(same('a b^2 c^3 d^4 + f', 'p q^2 r^3 s^4 + t'), 'five variables: the canonical order');
});

test('fingerprint: equations up to a constant factor; identities by their sides', () => {
  assert.equal(diff('x=2')?.key, diff('2x=4')?.key);
  assert.equal(diff('a=b')?.key, diff('b=a')?.key);
  assert.equal(diff('y = mx + c')?.key, diff('mx + c - y = 0')?.key);
  assert.notEqual(diff('x=2')?.key, diff('x=3')?.key);
  assert.notEqual(diff('x^2=4')?.key, diff('x=2')?.key);
  const id = analyseEquation('\\sin^2 t + \\cos^2 t = 1');
  assert.equal(id.fingerprints.difference, undefined);
  assert.equal(id.fingerprints.sides[0]?.key, id.fingerprints.sides[1]?.key);
  const x: Expr = { k: 'var', name: 'x' };
  const direct = equationFingerprints([op('mul', num(3), x), num(6)]);
  assert.equal(direct.difference?.key, diff('x = 2')?.key);
  assert.equal(direct.sides.length, 2);
});

test('fingerprint: non-finite values give no fingerprint', () => {
  const x: Expr = { k: 'var', name: 'x' };
  assert.equal(expressionFingerprint(op('div', num(1), op('sub', x, x))), undefined);
  assert.equal(expressionFingerprint(op('ln', num(0))), undefined);
  assert.ok(expressionFingerprint(op('acosh', x)), 'complex values are fine');
});

test('fingerprint: E-Gen clusters (op_2, op_d_2, op_4, poly_d_5) — members match their seed, seeds rarely collide', { skip: SKIP }, (t) => {
  const rates: string[] = [];
  for (const file of ['op_2.txt', 'op_d_2.txt', 'op_4.txt', 'poly_d_5.txt']) {
    const clusters = readEgenClusters(path.join(DIR, file));
    let members = 0;
    let matched = 0;
    const step = Math.max(1, Math.floor(clusters.length / 25));
    for (let c = 0; c < clusters.length; c += step) {
      const [seed, ...rest] = clusters[c];
      const s = expressionFingerprint(parsePrefix(seed));
      assert.ok(s, seed);
      // members spread over the whole cluster
      const every = Math.max(1, Math.floor(rest.length / 20));
      for (let k = 0; k < rest.length; k += every) {
        members++;
        const m = expressionFingerprint(parsePrefix(rest[k]));
        if (m && m.key === s.key) matched++;
      }
    }
    const rate = matched / members;
    rates.push(`${file}: ${matched}/${members} members = ${(100 * rate).toFixed(1)} %`);
    assert.ok(rate >= 0.95, rates[rates.length - 1]);
  }
  // seeds of different clusters over all files: pairs sharing a key
  const keys = new Map<string, number>();
  let seeds = 0;
  for (const file of fs.readdirSync(DIR).filter((f) => /^(op|poly)/.test(f))) {
    for (const c of readEgenClusters(path.join(DIR, file))) {
      const f = expressionFingerprint(parsePrefix(c[0]));
      if (!f) continue;
      seeds++;
      keys.set(f.key, (keys.get(f.key) ?? 0) + 1);
    }
  }
  const sharing = [...keys.values()].filter((n) => n > 1).reduce((a, n) => a + n, 0);
  rates.push(`seeds sharing a key with another cluster's seed: ${sharing}/${seeds} = ${(100 * sharing / seeds).toFixed(2)} % (most are truly equal: cos x and d/dx sin x)`);
  t.diagnostic(rates.join('; '));
  console.log(rates.join('\n'));
  assert.ok(sharing / seeds < 0.03);
});
