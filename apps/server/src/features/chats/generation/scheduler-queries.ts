import { and, eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { type GenerationRow, generations } from "../schema.ts";
import type { Capacity } from "./scheduling.ts";

/** Finished generations whose service time estimates the wait. */
const MEASURED = 50;

/**
 * Takes up to `max` replies from the front of the line that may run now: each one's capacity has
 * a free slot (counted in this process for an embedded model, everywhere for a remote server) and
 * its member is under their own limit, counting the replies taken before it in the same batch.
 * One round trip: the database function `hearth_claim_generations` (migration 0018) takes the
 * line's lock and claims under it, so processes never over-fill a capacity between them.
 */
export async function claimGenerations(
  db: Db,
  workerId: string,
  capacities: readonly Capacity[],
  max: number,
): Promise<GenerationRow[]> {
  if (capacities.length === 0 || max < 1) return [];
  const caps = JSON.stringify(
    Object.fromEntries(capacities.map((c) => [c.key, { limit: c.limit, local: c.perProcess }])),
  );
  const batch = Math.trunc(max);
  // Only the front of the line can be taken now; ranking it all would grow with the line's length.
  const front = batch * 4 + 64;
  const { rows } = await db.execute<Record<string, unknown>>(
    sql`select * from hearth_claim_generations(${workerId}, ${caps}::jsonb, ${front}::int, ${batch}::int)`,
  );
  return rows
    .map(generationFromRow)
    .sort(
      (x, y) =>
        x.turnAt.getTime() - y.turnAt.getTime() ||
        x.createdAt.getTime() - y.createdAt.getTime() ||
        x.id.localeCompare(y.id),
    );
}

const columns = Object.entries(getTableColumns(generations));

/** A generations row as the driver returns it (snake_case), typed as drizzle would map it. */
function generationFromRow(raw: Record<string, unknown>): GenerationRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as GenerationRow;
}

/** The first reply in line that may run now, or null (`claimGenerations` with a batch of one). */
export async function claimNextGeneration(
  db: Db,
  workerId: string,
  capacities: readonly Capacity[],
): Promise<GenerationRow | null> {
  return (await claimGenerations(db, workerId, capacities, 1))[0] ?? null;
}

/** Cancels a generation still waiting in line (its slot was never taken); null when it already started. */
export async function cancelQueued(db: Db, id: string): Promise<GenerationRow | null> {
  const [row] = await db
    .update(generations)
    .set({ status: "stopped", finishedAt: new Date() })
    .where(and(eq(generations.id, id), eq(generations.status, "queued")))
    .returning();
  return row ?? null;
}

/** Its place in line for its capacity: 1 when it is next, 0 once a worker has taken it. */
export async function placeInQueue(db: Db, id: string): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    select case when me.status <> 'queued' then 0 else (
      select count(*)::int + 1 from generations o
      where o.status = 'queued' and o.capacity_key = me.capacity_key
        and (o.turn_at, o.created_at, o.id) < (me.turn_at, me.created_at, me.id)) end as n
    from generations me where me.id = ${id}`);
  return rows[0]?.n ?? 0;
}

/** The median time a reply held a slot on this capacity lately, in ms (null before any finished). */
export async function medianServiceMs(db: Db, capacityKey: string): Promise<number | null> {
  const { rows } = await db.execute<{ ms: number | null }>(sql`
    select percentile_cont(0.5) within group (order by ms) as ms from (
      select extract(epoch from (finished_at - started_at)) * 1000 as ms from generations
      where capacity_key = ${capacityKey} and status in ('done', 'stopped')
        and started_at is not null and finished_at is not null
      order by finished_at desc limit ${sql.raw(String(MEASURED))}) recent`);
  const ms = rows[0]?.ms;
  return ms === null || ms === undefined ? null : Number(ms);
}

/** Whether replies have waited in line longer than `seconds` (a worker that died may have left them). */
export async function repliesWaitingLongerThan(db: Db, seconds: number): Promise<boolean> {
  const { rows } = await db.execute<{ waiting: boolean }>(sql`
    select exists (select 1 from generations where status = 'queued'
      and created_at < now() - make_interval(secs => ${seconds})) as waiting`);
  return Boolean(rows[0]?.waiting);
}

/** Whether replies wait in line for this capacity. */
export async function lineBusy(db: Db, capacityKey: string): Promise<boolean> {
  const { rows } = await db.execute<{ busy: boolean }>(sql`
    select exists (select 1 from generations
      where status = 'queued' and capacity_key = ${capacityKey}) as busy`);
  return Boolean(rows[0]?.busy);
}

export interface LineSnapshot {
  capacityKey: string;
  waiting: number;
  running: number;
  /** Seconds the oldest waiting reply has waited (0 when none waits). */
  oldestWaitS: number;
}

/** The line for each capacity right now, for /metrics. */
export async function lineSnapshot(db: Db): Promise<LineSnapshot[]> {
  const { rows } = await db.execute<{
    capacity_key: string;
    waiting: number;
    running: number;
    oldest: number;
  }>(sql`
    select capacity_key,
      (count(*) filter (where status = 'queued'))::int as waiting,
      (count(*) filter (where status = 'running'))::int as running,
      coalesce(extract(epoch from now() - min(created_at) filter (where status = 'queued')), 0)::float8 as oldest
    from generations where status in ('queued', 'running') group by capacity_key`);
  return rows.map((r) => ({
    capacityKey: r.capacity_key,
    waiting: Number(r.waiting),
    running: Number(r.running),
    oldestWaitS: Number(r.oldest),
  }));
}
