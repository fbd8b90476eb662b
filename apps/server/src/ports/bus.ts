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
  /**
   * Appends an event and answers its id (ids increase within a stream). With `hold`, the caller
   * says it will `read` the stream from this event on in a moment: a bus whose readers must
   * register (Redis) registers this process with the append itself, so that read costs no
   * round trip of its own (issue 15 item 4: the accept's reply stream).
   */
  append<T>(stream: string, data: T, options?: { hold?: boolean }): Promise<string>;
  /** Events after `afterId` ("0" for all kept), then live ones until the signal aborts. */
  read<T>(stream: string, afterId: string, signal: AbortSignal): AsyncIterable<BusEvent<T>>;
  /** The events a stream keeps now, oldest first (recovery rebuilds a reply from them). */
  range<T>(stream: string): Promise<BusEvent<T>[]>;
  /** Drops a stream's events after `ttlSeconds`. */
  expire(stream: string, ttlSeconds: number): Promise<void>;
  /**
   * A rare message for whichever process watches `name` (a reply's stop), kept `ttlSeconds` for a
   * watch that begins after it was sent. For what is almost never sent, cheaper than a stream: a
   * watch costs one read, not a place in a stream's reader set and the leaving and expiry after.
   */
  notify(name: string, data: unknown, ttlSeconds: number): Promise<void>;
  /**
   * The first notice sent to `name` (one kept from before the watch began included), or null
   * once `signal` aborts first.
   */
  watch<T>(name: string, signal: AbortSignal): Promise<T | null>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
