// The user's list of library folders (`$XDG_CONFIG_HOME/mathsense/library.json`), written by
// `mathsense library add|remove` and the server's library commands, read by both: a folder
// recorded from the terminal is searched in the editor too.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export function registryFile(): string {
  return path.join(process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'mathsense', 'library.json');
}

/** The recorded folders; none when the list is missing or unreadable. */
export function registeredFolders(): string[] {
  try {
    const r = JSON.parse(fs.readFileSync(registryFile(), 'utf8')) as { folders?: unknown };
    return Array.isArray(r.folders) ? r.folders.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    return [];
  }
}

export function writeRegistry(folders: readonly string[]): void {
  const file = registryFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify({ folders: [...new Set(folders)] }, null, 1)}\n`);
  fs.renameSync(tmp, file);
}
