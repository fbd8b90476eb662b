/**
 * Background work (generations, imports, training) goes through this port. Embedded installs
 * run jobs in-process; scale-out installs use BullMQ on Redis so any process may run them.
 */
export interface JobOptions {
  /** A job with the same id as a waiting or active one is not added twice. */
  jobId?: string;
  /** Lower runs first (BullMQ semantics); paid tiers get a better priority. */
  priority?: number;
  attempts?: number;
}

export type JobHandler<T> = (data: T, job: { id: string; attempt: number }) => Promise<void>;

export interface JobQueue {
  readonly driver: "in-process" | "redis";
  enqueue<T>(name: string, data: T, opts?: JobOptions): Promise<string>;
  /** Registers the worker for a job name; one worker per name per process. */
  process<T>(name: string, handler: JobHandler<T>, opts?: { concurrency?: number }): void;
  /**
   * This process takes no more jobs of `name` (a draining process); jobs it is running finish,
   * and jobs added later wait for another process (or for this one's restart).
   */
  pause(name: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
