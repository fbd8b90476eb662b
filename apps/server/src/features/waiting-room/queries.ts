import { and, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { characters } from "../characters/schema.ts";
import { conversations } from "../chats/schema.ts";
import { waitingRoom } from "./schema.ts";

/** The key of the advisory lock that serialises admissions across every process. */
const LINE_LOCK = sql`hashtext('hearth:waiting-room')`;
/** Ended accesses the estimate is drawn from (the most recent), and how long they are kept. */
const MEASURED_SESSIONS = 50;
const SESSIONS_KEPT = "7 days";
/** A waiting member who stops asking (tab closed) leaves the line after this many seconds. */
export const ABANDONED_AFTER_S = 10 * 60;
/** A lapsed access not asked about for a day is forgotten (the member then simply joins the line). */
const EXPIRED_KEPT_S = 24 * 60 * 60;

export interface LineInput {
  userId: string;
  priority: number;
  capacity: number;
  idleSeconds: number;
}

export interface LineState {
  status: "waiting" | "access";
  /** The member's own access lapsed since they last asked; they are back in line. */
  wasExpired: boolean;
  /** 1-based among the waiting, in admission order; null with access. */
  position: number | null;
  /** Seconds of idleness left before access lapses; null while waiting. */
  expiresIn: number | null;
  /** Seconds until the access slot this member is next for lapses, if they are next (≤ capacity). */
  nextSlotIn: number | null;
  /** The median seconds a recent access held its slot; null before any has ended. */
  medianServiceSeconds: number | null;
}

const secs = (n: number) => sql.raw(`interval '${Math.trunc(n)} seconds'`);

/**
 * One admission pass for one member, in one transaction under one advisory lock (processes on
 * PostgreSQL take turns): lapse idle accesses (recording how long each held its slot), drop a
 * line nobody polls, put the member in line (back at the end after a lapse), admit the first in
 * line while fewer than `capacity` hold access, and read the member's place.
 */
export async function passThroughLine(db: Db, input: LineInput): Promise<LineState> {
  const { userId, priority, capacity, idleSeconds } = input;
  const idle = secs(idleSeconds);
  return db.transaction(async (tx) => {
    // A busy line answers `refresh` rather than holding a request for long.
    await tx.execute(sql`set local lock_timeout = '3s'`);
    await tx.execute(sql`select pg_advisory_xact_lock(${LINE_LOCK})`);
    await tx.execute(sql`
      with lapsed as (
        update waiting_room set status = 'expired'
        where status = 'access' and last_seen_at < now() - ${idle}
        returning granted_at, last_seen_at
      )
      insert into waiting_room_sessions (seconds)
      select greatest(0, extract(epoch from (last_seen_at + ${idle} - coalesce(granted_at, last_seen_at))))::int
      from lapsed`);
    await tx.execute(sql`
      delete from waiting_room
      where user_id <> ${userId} and (
        (status = 'waiting' and last_seen_at < now() - ${secs(ABANDONED_AFTER_S)})
        or (status = 'expired' and last_seen_at < now() - ${secs(EXPIRED_KEPT_S)}))`);
    await tx.execute(
      sql`delete from waiting_room_sessions where ended_at < now() - interval '${sql.raw(SESSIONS_KEPT)}'`,
    );

    const [own] = await tx
      .select({ status: waitingRoom.status })
      .from(waitingRoom)
      .where(eq(waitingRoom.userId, userId));
    const wasExpired = own?.status === "expired";
    // clock_timestamp, not now() (the transaction's start): arrival is when the lock was had, so
    // members who began asking together are placed in the order they were served.
    const arrived = sql`clock_timestamp()`;
    if (!own) {
      await tx
        .insert(waitingRoom)
        .values({ userId, status: "waiting", priority, enteredAt: arrived, lastSeenAt: arrived });
    } else if (own.status === "expired") {
      await tx
        .update(waitingRoom)
        .set({ status: "waiting", priority, enteredAt: arrived, grantedAt: null, lastSeenAt: arrived })
        .where(eq(waitingRoom.userId, userId));
    } else if (own.status === "waiting") {
      // Asking keeps a place in line; a plan bought while waiting moves the member up.
      await tx
        .update(waitingRoom)
        .set({ priority, lastSeenAt: sql`now()` })
        .where(eq(waitingRoom.userId, userId));
    }

    await tx.execute(sql`
      update waiting_room set status = 'access', granted_at = now(), last_seen_at = now()
      where user_id in (
        select user_id from waiting_room where status = 'waiting'
        order by entered_at + make_interval(secs => priority), entered_at, user_id
        limit greatest(0, ${sql.raw(String(Math.trunc(capacity)))}
          - (select count(*) from waiting_room where status = 'access'))
      )`);

    const { rows } = await tx.execute<{
      status: "waiting" | "access";
      position: number | null;
      expires_in: number | null;
    }>(sql`
      select me.status, ${placeColumns(idle, sql``)}
      from waiting_room me where me.user_id = ${userId}`);
    const state = rows[0];
    if (!state) throw new Error("waiting room: the member's row vanished inside its transaction");
    if (state.status === "access") {
      return {
        status: "access",
        wasExpired,
        position: null,
        expiresIn: state.expires_in,
        nextSlotIn: null,
        medianServiceSeconds: null,
      };
    }
    return waitingState(tx, { wasExpired, position: Number(state.position), capacity, idle });
  });
}

/** A waiting member's answer: their place, and the times the wait is estimated from. */
async function waitingState(
  db: Pick<Db, "execute">,
  input: { wasExpired: boolean; position: number; capacity: number; idle: SQL },
): Promise<LineState> {
  const { wasExpired, position, capacity, idle } = input;
  const { rows: timing } = await db.execute<{ median: number | null; next_slot_in: number | null }>(sql`
    select
      (select percentile_cont(0.5) within group (order by seconds)::float8 from (
        select seconds from waiting_room_sessions order by ended_at desc
        limit ${sql.raw(String(MEASURED_SESSIONS))}
      ) recent) as median,
      (select greatest(0, extract(epoch from (last_seen_at + ${idle} - now())))::int
        from waiting_room where status = 'access'
        order by last_seen_at offset ${sql.raw(String(Math.max(0, position - 1)))} limit 1) as next_slot_in`);
  const t = timing[0];
  return {
    status: "waiting",
    wasExpired,
    position,
    expiresIn: null,
    nextSlotIn: position <= capacity && t?.next_slot_in != null ? Number(t.next_slot_in) : null,
    medianServiceSeconds: t?.median != null ? Number(t.median) : null,
  };
}

/**
 * The member's (`me`) place in line, counting the waiting members `alsoCounted` keeps who go
 * before them, and an access's seconds left before it lapses idle.
 */
function placeColumns(idle: SQL, alsoCounted: SQL): SQL {
  return sql`
    case when me.status = 'waiting' then (
      select count(*)::int + 1 from waiting_room o
      where o.status = 'waiting' ${alsoCounted}
        and (o.entered_at + make_interval(secs => o.priority), o.entered_at, o.user_id)
          < (me.entered_at + make_interval(secs => me.priority), me.entered_at, me.user_id)
    ) end as position,
    case when me.status = 'access' then
      greatest(0, extract(epoch from (me.last_seen_at + ${idle} - now())))::int
    end as expires_in`;
}

/**
 * The member's state without changing anything (GET /api/queue): null when they are not in line
 * and hold no access, `lapsed` for an access idle past its time (swept or not). The place in line
 * counts the waiting members who still ask, as the next admission pass would.
 */
export async function readPlace(
  db: Db,
  input: Omit<LineInput, "priority">,
): Promise<LineState | "lapsed" | null> {
  const idle = secs(input.idleSeconds);
  const { rows } = await db.execute<{
    status: "waiting" | "access" | "expired";
    lapsed: boolean;
    position: number | null;
    expires_in: number | null;
  }>(sql`
    select me.status,
      (me.status = 'expired' or (me.status = 'access' and me.last_seen_at < now() - ${idle})) as lapsed,
      ${placeColumns(idle, sql`and o.last_seen_at >= now() - ${secs(ABANDONED_AFTER_S)}`)}
    from waiting_room me where me.user_id = ${input.userId}`);
  const row = rows[0];
  if (!row) return null;
  if (row.lapsed) return "lapsed";
  if (row.status === "access") {
    const none = { position: null, nextSlotIn: null, medianServiceSeconds: null };
    return { status: "access", wasExpired: false, ...none, expiresIn: row.expires_in };
  }
  return waitingState(db, {
    wasExpired: false,
    position: Number(row.position),
    capacity: input.capacity,
    idle,
  });
}

/**
 * The one statement a generation costs when the room is on: refreshes the member's access and
 * answers whether they had one (an access idle past its time does not count, swept or not).
 */
export async function touchAccess(db: Db, userId: string, idleSeconds: number): Promise<boolean> {
  const rows = await db
    .update(waitingRoom)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(
        eq(waitingRoom.userId, userId),
        eq(waitingRoom.status, "access"),
        gt(waitingRoom.lastSeenAt, sql`now() - ${secs(idleSeconds)}`),
      ),
    )
    .returning({ userId: waitingRoom.userId });
  return rows.length > 0;
}

/** Who made a (not deleted) character, for the creator's bypass. */
export async function characterCreator(db: Db, characterId: string): Promise<string | null> {
  const [row] = await db
    .select({ creatorUserId: characters.creatorUserId })
    .from(characters)
    .where(and(eq(characters.id, characterId), isNull(characters.deletedAt)));
  return row?.creatorUserId ?? null;
}

/** A conversation's owner, character and length, for the new-chat bypass. */
export async function conversationForBypass(
  db: Db,
  conversationId: string,
): Promise<{ userId: string; characterId: string; messageCount: number } | null> {
  const [row] = await db
    .select({
      userId: conversations.userId,
      characterId: conversations.characterId,
      messageCount: conversations.messageCount,
    })
    .from(conversations)
    .where(eq(conversations.id, conversationId));
  return row ?? null;
}

/** Members in the room by state, for /metrics. */
export async function roomCounts(db: Db): Promise<{ status: string; members: number }[]> {
  const { rows } = await db.execute<{ status: string; members: number }>(
    sql`select status, count(*)::int as members from waiting_room group by status`,
  );
  return rows.map((r) => ({ status: r.status, members: Number(r.members) }));
}
