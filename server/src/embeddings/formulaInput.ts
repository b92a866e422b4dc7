// The formula encoder's input for a canonical formula text: in `$…$`, so the tokenizer reads it
// in math mode (each command, letter, digit and symbol one token). The training export and the
// server both build it here (models/formula-encoder/README.md).
export function formulaEncoderInput(canonical: string): string {
  return `$${canonical}$`;
}
