import { inArray } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { perDatabase } from "../../../db/per-database.ts";
import { generations } from "../schema.ts";

/** Ids per statement: keeps parameters far below PostgreSQL's 65,535. */
const IDS_PER_STATEMENT = 5000;

/**
 * One per database per process: the heartbeats of every reply this process runs, written
 * together in one statement each interval (upkeep closes a running reply whose heartbeat goes
 * stale, recovery.ts). One statement per reply per interval made the heartbeats, at a thousand
 * streams, a few hundred round trips a second; now they cost one per interval.
 */
export class HeartbeatWriter {
  private running = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  onError: (error: unknown) => void = () => {};

  constructor(
    private db: Db,
    readonly everyMs: number,
  ) {}

  /** Beats for this generation from now until `stop` (its claim wrote the first beat). */
  start(generationId: string): void {
    this.running.add(generationId);
    if (!this.timer) {
      this.timer = setInterval(() => void this.beat().catch(this.onError), this.everyMs);
      this.timer.unref();
    }
  }

  stop(generationId: string): void {
    this.running.delete(generationId);
    if (this.running.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Writes one beat for every running generation now. */
  async beat(): Promise<void> {
    const ids = [...this.running];
    const now = new Date();
    for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT)
      await this.db
        .update(generations)
        .set({ heartbeatAt: now })
        .where(inArray(generations.id, ids.slice(i, i + IDS_PER_STATEMENT)));
  }
}

const writers = perDatabase(() => new Map<number, HeartbeatWriter>());

/** The process's heartbeat writer for this database and interval. */
export function heartbeatWriter(db: Db, everyMs: number): HeartbeatWriter {
  const byInterval = writers(db);
  let writer = byInterval.get(everyMs);
  if (!writer) {
    writer = new HeartbeatWriter(db, everyMs);
    byInterval.set(everyMs, writer);
  }
  return writer;
}
