// Memory of a live process as Linux reports it (/proc/<pid>/status), for the benchmarks and the crafted-input tests.
import * as fs from 'node:fs';

/** Resident and peak resident memory (VmRSS, VmHWM) in bytes; null where unknown (not Linux). */
export function vmStatus(pid: number): { vmRssBytes: number | null; vmHwmBytes: number | null } {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number((new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(s) ?? [])[1]) * 1024 || null;
    return { vmRssBytes: kb('VmRSS'), vmHwmBytes: kb('VmHWM') };
  } catch {
    return { vmRssBytes: null, vmHwmBytes: null }; // not Linux
  }
}
