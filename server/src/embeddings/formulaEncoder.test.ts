// The committed formula encoder, run for real with onnxruntime-node through the text encoder's
// loader: its outputs match the reference vectors PyTorch computed at export time, the ids it
// was exported with are what the server's input text (formulaEncoderInput) tokenizes to now, and equivalent
// formulas written differently are nearer to each other than to an unrelated formula.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EncoderSession } from './encoderSession.js';
import { FORMULA_ENCODER_DIR, loadEncoderFiles } from './modelFiles.js';
import { assertReproduces } from '../testing/referenceVectors.js';
import { modelsDir } from '../testing/modelPaths.js';
import { canonicalFormula } from '../math/equations/canonicalLatex.js';
import { formulaEncoderInput } from './formulaInput.js';

const dir = path.join(modelsDir, FORMULA_ENCODER_DIR);
const SKIP = fs.existsSync(path.join(dir, 'config.json')) ? false : 'no formula encoder (npm run train:formula)';

/** The encoder's input text for a formula, as the server builds it. */
const input = (latex: string) => formulaEncoderInput(canonicalFormula(latex));
const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

test('the formula encoder reproduces its reference vectors and ranks equivalent forms together', { skip: SKIP }, async () => {
  const reference = JSON.parse(fs.readFileSync(path.join(dir, 'reference.json'), 'utf8')) as Array<{ text: string; ids: number[]; embedding: number[] }>;
  const enc = await EncoderSession.load(modelsDir, { model: FORMULA_ENCODER_DIR, accelerator: 'cpu' });
  try {
    assert.equal(enc.info.dim, 128);
    assert.ok(reference.length >= 3);
    for (const r of reference) {
      assert.deepEqual(enc.encode(formulaEncoderInput(r.text)), r.ids, 'tokenizer ids differ from the ids the model was exported with');
      const [v] = await enc.embedIds([r.ids]);
      assertReproduces(loadEncoderFiles(modelsDir, { model: FORMULA_ENCODER_DIR }).config.weights, r.embedding, v, r.text);
    }
    const [a, b, c] = await enc.embedTexts([input('(p+q)^2'), input('a^{2} + 2 a b + b^{2}'), input('\\int_0^1 f(t) \\, dt = F(1) - F(0)')]);
    assert.ok(cos(a, b) > cos(a, c) && cos(a, b) > cos(b, c), `${cos(a, b)} vs ${cos(a, c)}, ${cos(b, c)}`);
  } finally {
    await enc.release();
  }
});
