/**
 * Plays Listen's pieces back to back as they arrive: each is decoded (in order) and scheduled to
 * start when the one before it ends, so the first sentence plays while later ones are still
 * being made. `finish()` says no more will come; `onEnded` fires once the last has played.
 */
export class SentencePlayer {
  private readonly ctx: AudioContext;
  private nextStart = 0;
  private decoding: Promise<void> = Promise.resolve();
  private readonly playing = new Set<AudioBufferSourceNode>();
  private finished = false;
  private stopped = false;
  /** When the first piece started, for the time to first audio. */
  firstStartedAt: number | null = null;

  constructor(private readonly onEnded: () => void) {
    this.ctx = new AudioContext();
  }

  add(base64: string): Promise<void> {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    this.decoding = this.decoding.then(async () => {
      if (this.stopped) return;
      const buffer = await this.ctx.decodeAudioData(bytes.buffer);
      if (this.stopped) return;
      const source = this.ctx.createBufferSource();
      source.buffer = buffer;
      source.connect(this.ctx.destination);
      const at = Math.max(this.ctx.currentTime, this.nextStart);
      this.nextStart = at + buffer.duration;
      this.firstStartedAt ??= performance.now();
      source.onended = () => {
        this.playing.delete(source);
        this.endIfDone();
      };
      this.playing.add(source);
      source.start(at);
    });
    return this.decoding;
  }

  /** No more pieces: ends once what was added has played. */
  finish() {
    this.finished = true;
    void this.decoding.then(() => this.endIfDone());
  }

  private endIfDone() {
    if (this.finished && this.playing.size === 0 && !this.stopped) {
      this.stopped = true;
      void this.ctx.close();
      this.onEnded();
    }
  }

  stop() {
    if (this.stopped) return;
    this.stopped = true;
    for (const source of this.playing) {
      source.onended = null;
      source.stop();
    }
    this.playing.clear();
    void this.ctx.close();
  }
}
