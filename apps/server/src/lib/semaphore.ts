/** A first-come, first-served line of at most `size` holders at a time. */
export class Semaphore {
  private held = 0;
  private waiting: (() => void)[] = [];
  constructor(private size: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.held >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held++;
    try {
      return await work();
    } finally {
      // The place passes straight to the next in line, so none overtakes it.
      const next = this.waiting.shift();
      if (next) next();
      else this.held--;
    }
  }

  /** How many hold a place now and how many wait. */
  get load(): { running: number; waiting: number } {
    return { running: this.held, waiting: this.waiting.length };
  }
}
