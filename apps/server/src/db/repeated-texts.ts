/**
 * Counts statement texts until one has been seen `after` times: which texts are worth a named
 * prepared statement (pglite-statements.ts, pg-statements.ts). Texts seen fewer times pile up
 * (a list of every length, a literal in the text), so past `cap` of them the count starts over.
 */
export class RepeatedTexts {
  private seen = new Map<string, number>();

  constructor(
    private readonly after: number,
    private readonly cap: number,
  ) {}

  /** Counts one use of `text`; true once it has been seen `after` times (then it is no longer counted). */
  repeated(text: string): boolean {
    const count = (this.seen.get(text) ?? 0) + 1;
    if (count >= this.after) {
      this.seen.delete(text);
      return true;
    }
    if (this.seen.size > this.cap) this.seen.clear();
    this.seen.set(text, count);
    return false;
  }
}
