// What the `matches` code lenses found per display, kept for the session
// (features/equations/equationLenses.ts computes it).

/**
 * Lens titles of the `matches` mode per display (undefined: nothing worth a lens), with the
 * corpus signature they were computed under. Only titles are kept (a client searches again when
 * a lens is opened), so a whole project's displays cost little memory.
 */
export class MatchCache {
  private readonly titles = new Map<string, { sig: string; title: string | undefined }>();

  get(key: string): { sig: string; title: string | undefined } | undefined { return this.titles.get(key); }

  set(key: string, sig: string, title: string | undefined): void {
    if (this.titles.size > 50000) this.titles.clear();
    this.titles.set(key, { sig, title });
  }
}
