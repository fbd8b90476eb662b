import { and, count, desc, eq, gte, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { characters } from "../characters/schema.ts";
import { imageTrainingRequests as requests, type TrainingRequestRow } from "./schema.ts";

const OPEN = ["queued", "submitted"] as const;
/** One lock key space per member for the daily limit (any fixed number apart from the others used). */
const LIMIT_LOCK_SPACE = 21_016;

/** Midnight UTC of `now`'s day: the daily limit's day. */
export function dayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Training requests not finished yet on this server: §7's "count of queued training requests". */
export async function openRequestCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(requests).where(inArray(requests.status, OPEN));
  return row?.n ?? 0;
}

export async function requestsSince(db: Pick<Db, "select">, userId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(requests)
    .where(and(eq(requests.userId, userId), gte(requests.createdAt, since)));
  return row?.n ?? 0;
}

export type RequestOutcome = { kind: "queued"; id: string } | { kind: "limit" } | { kind: "busy" };

/**
 * Records a request when the member is under the day's limit and the bot is not trained or
 * training already: the count, the bot's move to `pending` and the row in one transaction,
 * under a lock per member, so two requests at once cannot both take the last one of the day.
 */
export async function insertRequest(
  db: Db,
  r: {
    characterId: string;
    userId: string;
    triggerWord: string;
    weight: number;
    since: Date;
    limit: number;
    /** Its first step is queued now; the sweep leaves it alone until then. */
    firstPollAt: Date;
  },
): Promise<RequestOutcome> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${LIMIT_LOCK_SPACE}, hashtext(${r.userId}))`);
    if ((await requestsSince(tx, r.userId, r.since)) >= r.limit) return { kind: "limit" };
    const moved = await tx
      .update(characters)
      .set({ loraStatus: "pending" })
      .where(and(eq(characters.id, r.characterId), inArray(characters.loraStatus, ["not_trained", "failed"])))
      .returning({ id: characters.id });
    if (moved.length === 0) return { kind: "busy" };
    const [row] = await tx
      .insert(requests)
      .values({
        characterId: r.characterId,
        userId: r.userId,
        triggerWord: r.triggerWord,
        nextPollAt: r.firstPollAt,
        loraWeight: r.weight,
      })
      .returning({ id: requests.id });
    if (!row) throw new Error("training request not stored");
    return { kind: "queued", id: row.id };
  });
}

export async function findRequest(db: Db, id: string): Promise<TrainingRequestRow | null> {
  const [row] = await db.select().from(requests).where(eq(requests.id, id)).limit(1);
  return row ?? null;
}

/** What the job needs of the bot: its name and avatar (the reference image). */
export async function characterForTraining(db: Db, id: string) {
  const [row] = await db
    .select({ id: characters.id, name: characters.name, avatarKey: characters.avatarKey })
    .from(characters)
    .where(eq(characters.id, id))
    .limit(1);
  return row ?? null;
}

/**
 * Takes the unfinished requests due a look at `now`, moving each one's next look `leaseMs`
 * ahead so no other process takes it meanwhile. Answers their ids.
 */
export async function claimDue(db: Db, now: Date, leaseMs: number, limit = 50): Promise<string[]> {
  const { rows } = await db.execute<{ id: string }>(sql`
    update ${requests} set next_poll_at = ${new Date(now.getTime() + leaseMs)}
    where id in (
      select id from ${requests}
      where status in ('queued', 'submitted') and next_poll_at <= ${now}
      order by next_poll_at
      limit ${limit}
      for update skip locked
    )
    returning id`);
  return rows.map((r) => r.id);
}

export async function markSubmitted(db: Db, id: string, jobId: string, nextPollAt: Date): Promise<void> {
  await db
    .update(requests)
    .set({ status: "submitted", jobId, nextPollAt })
    .where(and(eq(requests.id, id), eq(requests.status, "queued")));
}

export async function pollLater(db: Db, id: string, nextPollAt: Date): Promise<void> {
  await db.update(requests).set({ nextPollAt }).where(eq(requests.id, id));
}

/**
 * Ends an unfinished request and moves its bot to `ready` or `failed`, in one transaction.
 * Answers false when it had already ended (another process finished it first).
 */
export async function finishRequest(
  db: Db,
  id: string,
  outcome: { status: "succeeded"; loraKey: string } | { status: "failed"; error: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(requests)
      .set({
        status: outcome.status,
        loraKey: outcome.status === "succeeded" ? outcome.loraKey : null,
        error: outcome.status === "failed" ? outcome.error.slice(0, 500) : null,
        finishedAt: new Date(),
      })
      .where(and(eq(requests.id, id), inArray(requests.status, OPEN)))
      .returning({ characterId: requests.characterId });
    if (!row) return false;
    await tx
      .update(characters)
      .set({ loraStatus: outcome.status === "succeeded" ? "ready" : "failed" })
      .where(eq(characters.id, row.characterId));
    return true;
  });
}

/** The newest trained LoRA of a bot whose lora_status is ready. */
export async function readyLora(db: Db, characterId: string) {
  const [row] = await db
    .select({
      requestId: requests.id,
      key: requests.loraKey,
      triggerWord: requests.triggerWord,
      weight: requests.loraWeight,
    })
    .from(requests)
    .innerJoin(characters, eq(characters.id, requests.characterId))
    .where(
      and(
        eq(requests.characterId, characterId),
        eq(requests.status, "succeeded"),
        eq(characters.loraStatus, "ready"),
      ),
    )
    .orderBy(desc(requests.finishedAt))
    .limit(1);
  return row?.key ? { ...row, key: row.key } : null;
}

/**
 * A bot left `pending` with no unfinished request (its requester's account was deleted, and the
 * request with it) becomes `failed`, so any member may ask again. Answers how many.
 */
export async function releaseOrphanedBots(db: Db): Promise<number> {
  const rows = await db
    .update(characters)
    .set({ loraStatus: "failed" })
    .where(
      and(
        eq(characters.loraStatus, "pending"),
        sql`not exists (select 1 from ${requests} where ${requests.characterId} = ${characters.id} and ${requests.status} in ('queued', 'submitted'))`,
      ),
    )
    .returning({ id: characters.id });
  return rows.length;
}
