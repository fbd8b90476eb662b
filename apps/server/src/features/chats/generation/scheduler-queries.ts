import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { type GenerationRow, generations } from "../schema.ts";
import type { Capacity } from "./scheduling.ts";

/** Claims take turns across every process: counting free slots and taking them is one step. */
const CLAIM_LOCK = sql`hashtext('hearth:generation-claim')`;
/** Finished generations whose service time estimates the wait. */
const MEASURED = 50;

/**
 * Takes up to `max` replies from the front of the line that may run now: each one's capacity has
 * a free slot (counted in this process for an embedded model, everywhere for a remote server) and
 * its member is under their own limit, counting the replies taken before it in the same batch.
 * One statement under the line's lock, so processes never over-fill a capacity between them.
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
  // Only the front of the line can be taken now; ranking it all would grow with the line's length.
  const front = sql.raw(String(Math.trunc(max) * 4 + 64));
  const batch = sql.raw(String(Math.trunc(max)));
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`);
    return tx
      .update(generations)
      .set({ status: "running", workerId, startedAt: sql`now()`, heartbeatAt: sql`now()` })
      .where(
        and(
          eq(generations.status, "queued"),
          sql`${generations.id} in (
            with caps as (select ${caps}::jsonb as c),
            running as (select user_id, capacity_key, worker_id from generations where status = 'running'),
            by_user as (select user_id, count(*)::int as n from running group by user_id),
            by_capacity as (
              select capacity_key, count(*)::int as total,
                (count(*) filter (where worker_id = ${workerId}))::int as mine
              from running group by capacity_key),
            head as (
              select g.id, g.user_id, g.capacity_key, g.max_running, g.turn_at, g.created_at
              from generations g cross join caps
              where g.status = 'queued' and caps.c ? g.capacity_key
              order by g.turn_at, g.created_at, g.id limit ${front}),
            within_member as (
              select h.*, coalesce(u.n, 0) + row_number() over (
                partition by h.user_id order by h.turn_at, h.created_at, h.id) as nth_of_member
              from head h left join by_user u on u.user_id = h.user_id),
            within_capacity as (
              select m.*, (case when (caps.c -> m.capacity_key ->> 'local')::boolean
                  then coalesce(k.mine, 0) else coalesce(k.total, 0) end)
                + row_number() over (
                  partition by m.capacity_key order by m.turn_at, m.created_at, m.id) as nth_of_capacity,
                (caps.c -> m.capacity_key ->> 'limit')::int as capacity_limit
              from within_member m cross join caps
              left join by_capacity k on k.capacity_key = m.capacity_key
              where m.nth_of_member <= m.max_running)
            select id from within_capacity where nth_of_capacity <= capacity_limit
            order by turn_at, created_at, id limit ${batch})`,
        ),
      )
      .returning();
  });
  return rows.sort(
    (x, y) =>
      x.turnAt.getTime() - y.turnAt.getTime() ||
      x.createdAt.getTime() - y.createdAt.getTime() ||
      x.id.localeCompare(y.id),
  );
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
