/**
 * Event streams between the process that does the work and the processes that hold the
 * clients' connections. A stream keeps its events for a while, so a client that reconnects
 * resumes from the last id it saw without losing any.
 */
export interface BusEvent<T = unknown> {
  id: string;
  data: T;
}

export interface EventBus {
  readonly driver: "in-process" | "redis";
  /** Appends an event and answers its id (ids increase within a stream). */
  append<T>(stream: string, data: T): Promise<string>;
  /** Events after `afterId` ("0" for all kept), then live ones until the signal aborts. */
  read<T>(stream: string, afterId: string, signal: AbortSignal): AsyncIterable<BusEvent<T>>;
  /** The events a stream keeps now, oldest first (recovery rebuilds a reply from them). */
  range<T>(stream: string): Promise<BusEvent<T>[]>;
  /** Drops a stream's events after `ttlSeconds`. */
  expire(stream: string, ttlSeconds: number): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
