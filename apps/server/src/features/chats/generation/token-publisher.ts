import type { GenerationEvent } from "@hearth/contract";

/**
 * Sends a reply's tokens to the bus as they come (decision 015): one append in flight at a
 * time, and tokens that arrive meanwhile go together in the next, so a quiet bus sends each
 * token at once and a busy one sends fewer, larger batches instead of falling behind.
 */
export class TokenPublisher {
  private unsent = "";
  private sending: Promise<void> | null = null;
  private failure: unknown = null;

  constructor(private publish: (event: GenerationEvent) => Promise<unknown>) {}

  push(text: string): void {
    if (this.failure) throw this.failure;
    if (!text) return;
    this.unsent += text;
    if (!this.sending) this.sending = this.pump();
  }

  /** Resolves once every token pushed is on the bus; throws if an append failed. */
  async drain(): Promise<void> {
    while (this.sending) await this.sending;
    if (this.failure) throw this.failure;
  }

  private async pump(): Promise<void> {
    try {
      while (this.unsent && !this.failure) {
        const text = this.unsent;
        this.unsent = "";
        await this.publish({ type: "token", text });
      }
    } catch (error) {
      this.failure = error;
    } finally {
      this.sending = null;
    }
  }
}
