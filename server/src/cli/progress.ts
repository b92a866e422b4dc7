// A progress display on stderr for long CLI work: a bar redrawn in place on a terminal, a line
// per phase and per 10 % otherwise (logs). `done` as the phase ends the bar's line; '' erases it
// (the work's own output follows).
export type ProgressFn = (phase: string, done: number, total: number) => void;

export function progressBar(err: (s: string) => void, tty: boolean): ProgressFn {
  let last = '';
  let lastPct = -1;
  return (phase, done, total) => {
    const pct = total ? Math.floor((done / total) * 100) : 100;
    if (phase === '') { if (tty) err('\r\u001b[K'); last = ''; return; }
    if (tty) {
      const w = 30, fill = Math.round((pct / 100) * w);
      err(`\r[${'#'.repeat(fill)}${'-'.repeat(w - fill)}] ${String(pct).padStart(3)}% ${phase}${total > 1 ? ` ${done}/${total}` : ''}\u001b[K`);
      if (phase === 'done') err('\n');
    } else if (phase !== last || pct >= lastPct + 10) {
      err(`${phase}${total > 1 ? ` ${done}/${total} (${pct}%)` : ''}\n`);
      lastPct = phase !== last ? pct : pct - (pct % 10);
    }
    last = phase;
  };
}
