import { z } from "zod";

/**
 * The waiting room (chat-and-characters §2 and §4 "Waiting queue", accounts-billing-admin §3-§4
 * "Queue state", §7 `GET queue`): admission in front of chatting when demand exceeds what the
 * site's models can serve. Off unless the operator sets a capacity (HEARTH_WAITING_ROOM_CAPACITY).
 */

/** Seconds before a waiting client asks again, unless the answer says otherwise (§ "Queue retry default"). */
export const QUEUE_RETRY_AFTER_S = 30;
/** Access lapses after this long without chatting (§ "access expiry"). */
export const QUEUE_ACCESS_IDLE_S = 20 * 60;
/** The estimate is shown from this many seconds on (§ "Waiting room time estimate appears at 60 s or more"). */
export const QUEUE_TIME_SHOWN_FROM_S = 60;

/**
 * `waiting`: in line; `access`: may chat (until idle for QUEUE_ACCESS_IDLE_S); `expired`: access
 * lapsed (said once, then the member is back in line); `refresh`: ask again at once (the state
 * moved while it was read); `not_in_line`: neither in line nor admitted (only reading says so:
 * joining is `POST /api/queue`).
 */
export const queueStatus = z.enum(["waiting", "access", "refresh", "expired", "not_in_line"]);
export type QueueStatus = z.infer<typeof queueStatus>;

/** GET /api/queue?character_id=&conversation_id=, and the body of POST /api/queue. */
export const queueQuery = z.object({
  /** The character being chatted with: its creator, for one, is let through (`bypass`). */
  character_id: z.uuid().optional(),
  /** The chat: one with a single message (its greeting) is let through. */
  conversation_id: z.uuid().optional(),
});

export const queueState = z.object({
  status: queueStatus,
  /** Seconds before asking again. */
  retry_after: z.number().int().min(0),
  /** The character id this member may chat with while others wait (their own bot, a new chat); null for none. */
  bypass: z.string().nullable(),
  /** 1-based place in line while waiting; null otherwise. */
  position: z.number().int().min(1).nullable(),
  /** Estimated seconds until access, from measured access times; null when not waiting. */
  time_left: z.number().int().min(0).nullable(),
  /** Seconds of idleness left before access lapses; null without access. */
  expires_in: z.number().int().min(0).nullable(),
  /** Whether the waiting room is on at all (a capacity is set). */
  enabled: z.boolean(),
});
export type QueueState = z.infer<typeof queueState>;
