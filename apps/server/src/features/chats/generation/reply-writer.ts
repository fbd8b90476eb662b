import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { messages } from "../schema.ts";

/**
 * How often streaming replies' text is stored (decision 015). Tokens reach clients at once
 * through the bus; the database gets every streaming reply's new text in one statement this
 * often, so its work grows with the interval's count, not with tokens or streams.
 */
export const WRITE_EVERY_MS = 500;
/** Rows per statement: keeps parameters (two per row) far below PostgreSQL's 65,535. */
const ROWS_PER_STATEMENT = 500;

/**
 * One per database per process: the latest text of each streaming reply, written in batches.
 * `forget` is called before a reply's final write, and waits out a batch in flight, so a batch
 * never lands after (and over) the final text; the statement also skips replies no longer
 * streaming, for the same reason.
 */
export class StreamingTextWriter {
  private pending = new Map<string, string>();
  private live = new Set<string>();
  private inflight: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  onError: (error: unknown) => void = () => {};

  constructor(
    private db: Db,
    readonly everyMs = WRITE_EVERY_MS,
  ) {}

  /** The reply's whole text so far; stored with the next batch. */
  set(messageId: string, content: string): void {
    this.live.add(messageId);
    this.pending.set(messageId, content);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.tick(), this.everyMs);
      this.timer.unref();
    }
  }

  /** Stops writing this reply; once it resolves no batch of it is in flight. */
  async forget(messageId: string): Promise<void> {
    this.live.delete(messageId);
    this.pending.delete(messageId);
    await this.inflight?.catch(() => {});
  }

  /** Writes what is pending now (tests, shutdown). */
  async flush(): Promise<void> {
    while (this.inflight) await this.inflight.catch(() => {});
    await this.write();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    await this.write().catch(this.onError);
    // The next batch starts an interval after this one ended: a slow database gets fewer, larger ones.
    if (this.pending.size > 0 && !this.timer) {
      this.timer = setTimeout(() => void this.tick(), this.everyMs);
      this.timer.unref();
    }
  }

  private write(): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    const batch = [...this.pending];
    this.pending.clear();
    const run = (async () => {
      try {
        for (let i = 0; i < batch.length; i += ROWS_PER_STATEMENT)
          await writeStreamingTexts(this.db, batch.slice(i, i + ROWS_PER_STATEMENT));
      } catch (error) {
        // Kept for the next batch unless newer text or the final write came since.
        for (const [id, content] of batch)
          if (this.live.has(id) && !this.pending.has(id)) this.pending.set(id, content);
        throw error;
      }
    })();
    this.inflight = run;
    return run.finally(() => {
      if (this.inflight === run) this.inflight = null;
    });
  }
}

/** Many streaming replies' text in one UPDATE; a reply that stopped streaming is left alone. */
export async function writeStreamingTexts(db: Db, rows: [id: string, content: string][]): Promise<void> {
  if (rows.length === 0) return;
  if (rows.length === 1) {
    const [id, content] = rows[0] as [string, string];
    await db
      .update(messages)
      .set({ content })
      .where(and(eq(messages.id, id), eq(messages.state, "streaming")));
    return;
  }
  const values = sql.join(
    rows.map(([id, content]) => sql`(${id}::text, ${content}::text)`),
    sql`, `,
  );
  await db.execute(
    sql`update ${messages} set content = v.content from (values ${values}) as v(id, content) where ${messages.id} = v.id and ${messages.state} = 'streaming'`,
  );
}

const writers = new WeakMap<Db, StreamingTextWriter>();

/** The process's writer for this database. */
export function streamingTextWriter(db: Db): StreamingTextWriter {
  let writer = writers.get(db);
  if (!writer) {
    writer = new StreamingTextWriter(db);
    writers.set(db, writer);
  }
  return writer;
}
