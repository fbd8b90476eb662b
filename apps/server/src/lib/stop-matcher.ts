/**
 * Streams text through while watching for stop strings. Text that might be the start of a stop
 * string is held back until it is clear, so a stop string never leaks into the reply.
 */
export class StopMatcher {
  private pending = "";
  private stopped = false;

  constructor(private readonly stops: readonly string[]) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Feeds new text; answers what may be emitted now. */
  push(text: string): string {
    if (this.stopped) return "";
    this.pending += text;
    let cut = -1;
    for (const stop of this.stops) {
      const at = this.pending.indexOf(stop);
      if (at >= 0 && (cut < 0 || at < cut)) cut = at;
    }
    if (cut >= 0) {
      this.stopped = true;
      const out = this.pending.slice(0, cut);
      this.pending = "";
      return out;
    }
    const hold = this.longestStopPrefixAtEnd();
    const out = this.pending.slice(0, this.pending.length - hold);
    this.pending = this.pending.slice(this.pending.length - hold);
    return out;
  }

  /** The end of the stream: whatever was held back is text after all. */
  flush(): string {
    const out = this.stopped ? "" : this.pending;
    this.pending = "";
    return out;
  }

  private longestStopPrefixAtEnd(): number {
    let longest = 0;
    for (const stop of this.stops) {
      for (let n = Math.min(stop.length - 1, this.pending.length); n > longest; n--) {
        if (this.pending.endsWith(stop.slice(0, n))) {
          longest = n;
          break;
        }
      }
    }
    return longest;
  }
}
