import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { perDatabase } from "../../../db/per-database.ts";
import { messages } from "../schema.ts";

/**
 * How often streaming replies' text is stored (decision 015). Tokens reach clients at once
 * through the bus; the database gets every streaming reply's new text in one statement this
 * often, so its work grows with the interval's count, not with tokens or streams.
 */
export const WRITE_EVERY_MS = 500;
/**
 * Rows per statement. The embedded database runs a statement on the event loop's own thread: at
 * 200 streams one statement for all of them held every reply's tokens for 20-38 ms each interval
 * (docs/PERFORMANCE.md); a batch of this many rows takes a few, and the loop turns between them.
 */
const ROWS_PER_STATEMENT = 50;

/** What a reply's row is known to hold: the text of the last write that succeeded, and its length in characters. */
interface Stored {
  text: string;
  chars: number;
}

/**
 * One per database per process: the latest text of each streaming reply, written in batches.
 * A batch sends each reply's new text only (what came after the last write that succeeded), so a
 * long reply costs what a short one does; a failed write leaves the last known text in place and
 * the next batch sends everything after it. `forget` is called before a reply's final write, and
 * waits out a batch in flight, so a batch never lands after (and over) the final text; the
 * statement also skips replies no longer streaming, for the same reason.
 */
export class StreamingTextWriter {
  private pending = new Map<string, string>();
  private live = new Set<string>();
  private stored = new Map<string, Stored>();
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
    // Never two batches at once: a later one landing first would leave the row shorter than the
    // text the writer believes it holds. A batch in flight arms the next one as it ends (tick).
    if (!this.timer && !this.inflight) {
      this.timer = setTimeout(() => void this.tick(), this.everyMs);
      this.timer.unref();
    }
  }

  /** Stops writing this reply; once it resolves no batch of it is in flight. */
  async forget(messageId: string): Promise<void> {
    this.live.delete(messageId);
    this.pending.delete(messageId);
    this.stored.delete(messageId);
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
    const batch = [...this.pending].map(([id, content]) => textChange(id, content, this.stored.get(id)));
    this.pending.clear();
    const run = (async () => {
      try {
        for (let i = 0; i < batch.length; i += ROWS_PER_STATEMENT) {
          // Tokens that arrived meanwhile go out before the next statement.
          if (i > 0) await new Promise((resolve) => setImmediate(resolve));
          await writeStreamingTexts(this.db, batch.slice(i, i + ROWS_PER_STATEMENT));
        }
      } catch (error) {
        // Kept for the next batch unless newer text or the final write came since.
        for (const change of batch)
          if (this.live.has(change.id) && !this.pending.has(change.id))
            this.pending.set(change.id, change.content);
        throw error;
      }
      for (const change of batch) if (this.live.has(change.id)) this.stored.set(change.id, change.after);
    })();
    this.inflight = run;
    return run.finally(() => {
      if (this.inflight === run) this.inflight = null;
    });
  }
}

/** One reply's write: keep the row's first `keep` characters and add `tail`, making it `content`. */
export interface TextChange {
  id: string;
  keep: number;
  tail: string;
  content: string;
  after: Stored;
}

/**
 * What to send for a reply whose row holds `stored`: only the new text when `content` extends it,
 * else all of it. Lengths are in characters (code points), as PostgreSQL's `left` counts them; a
 * text that ends inside a surrogate pair counts as known only up to before it.
 */
export function textChange(id: string, content: string, stored: Stored | undefined): TextChange {
  const extendsStored = stored !== undefined && content.startsWith(stored.text);
  const from = extendsStored ? stored.text.length : 0;
  const keep = extendsStored ? stored.chars : 0;
  const tail = content.slice(from);
  const last = content.charCodeAt(content.length - 1);
  const whole = last >= 0xd800 && last <= 0xdbff ? content.length - 1 : content.length;
  const known = content.slice(0, Math.max(whole, from));
  return { id, keep, tail, content, after: { text: known, chars: keep + codePoints(known, from) } };
}

/** Code points in `text` from UTF-16 offset `from`. */
function codePoints(text: string, from: number): number {
  let n = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * Many streaming replies' text in one UPDATE (three array parameters, whatever the count); each
 * row keeps its known start and gets its new text. A reply that stopped streaming is left alone.
 */
export async function writeStreamingTexts(db: Db, changes: TextChange[]): Promise<void> {
  if (changes.length === 0) return;
  await db.execute(
    sql`update ${messages} set content = left(${messages.content}, v.keep) || v.tail
      from unnest(${sql.param(changes.map((c) => c.id))}::text[], ${sql.param(changes.map((c) => c.keep))}::int[],
        ${sql.param(changes.map((c) => c.tail))}::text[]) as v(id, keep, tail)
      where ${messages.id} = v.id and ${messages.state} = 'streaming'`,
  );
}

/** The process's writer for this database. */
export const streamingTextWriter = perDatabase((db) => new StreamingTextWriter(db));
