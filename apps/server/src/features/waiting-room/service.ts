import { QUEUE_ACCESS_IDLE_S, QUEUE_RETRY_AFTER_S, type QueueState } from "@hearth/contract";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.ts";
import { describeError } from "../../lib/describe-error.ts";
import type { Viewer } from "../accounts/index.ts";
import {
  bypasses,
  hasActiveSubscription,
  priorityOf,
  skipsWaitingRoom,
  waitingRoomRefusal,
} from "./policy.ts";
import {
  characterCreator,
  conversationForBypass,
  type LineState,
  passThroughLine,
  readPlace,
  touchAccess,
} from "./queries.ts";

/** The chat a member asks about: its character or conversation may let them through (`bypass`). */
type BypassQuery = { character_id?: string; conversation_id?: string };

/**
 * What an access is assumed to hold its slot for before any has been measured: the 20 minutes
 * of idleness that end every access, plus ten of chatting.
 */
export const DEFAULT_SERVICE_S = QUEUE_ACCESS_IDLE_S + 10 * 60;

export interface WaitingRoomDeps {
  db: Db;
  /** Members chatting at once; 0: the room is off. */
  capacity: number;
  /** The operator's times (HEARTH_WAITING_*); the spec's defaults where not given. */
  timing?: { retryAfterS: number; accessIdleS: number };
}

/** Lock waits give up with SQLSTATE 55P03; drizzle wraps the driver's error in `cause`. */
function isLockTimeout(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "55P03") return true;
  }
  return false;
}

/** The waiting room's admission decisions (issue 15 item 1). */
export class WaitingRoom {
  private retryAfterS: number;
  private accessIdleS: number;

  constructor(private deps: WaitingRoomDeps) {
    this.retryAfterS = deps.timing?.retryAfterS ?? QUEUE_RETRY_AFTER_S;
    this.accessIdleS = deps.timing?.accessIdleS ?? QUEUE_ACCESS_IDLE_S;
  }

  /** An answer of the queue, with this room's retry_after unless it says otherwise. */
  private answer(over: Partial<QueueState> & Pick<QueueState, "status">): QueueState {
    return {
      retry_after: this.retryAfterS,
      bypass: null,
      position: null,
      time_left: null,
      expires_in: null,
      enabled: true,
      ...over,
    };
  }

  get enabled(): boolean {
    return this.deps.capacity > 0;
  }

  /**
   * GET /api/queue: the member's state, read only (a member not in line is told so, not put in
   * it). When the line cannot be read, subscribers are let in and everyone else waits
   * (accounts-billing-admin § "Queue fetch error"), rather than an error.
   */
  state(viewer: Viewer, query: BypassQuery, log: FastifyBaseLogger): Promise<QueueState> {
    return this.answerFor(viewer, query, log, () => this.readLine(viewer));
  }

  /** POST /api/queue: joins the line, or keeps the member's place in it, and admits while there is room. */
  join(viewer: Viewer, query: BypassQuery, log: FastifyBaseLogger): Promise<QueueState> {
    return this.answerFor(viewer, query, log, () => this.line(viewer));
  }

  private async answerFor(
    viewer: Viewer,
    query: BypassQuery,
    log: FastifyBaseLogger,
    line: () => Promise<QueueState>,
  ): Promise<QueueState> {
    if (!this.enabled) return this.answer({ status: "access", enabled: false });
    if (skipsWaitingRoom(viewer)) return this.answer({ status: "access" });
    try {
      const bypass = await this.bypassFor(viewer, query);
      if (bypass) return this.answer({ status: "access", bypass });
      return await line();
    } catch (error) {
      if (isLockTimeout(error)) return this.answer({ status: "refresh", retry_after: 1 });
      log.error({ cause: describeError(error) }, "waiting room unreadable; admitting subscribers only");
      return hasActiveSubscription(viewer)
        ? this.answer({ status: "access" })
        : this.answer({ status: "waiting" });
    }
  }

  /**
   * Before a generation: refuses (429 `waitingRoom`) a member who has neither access nor a bypass
   * for this chat, and keeps an access alive. One UPDATE when the room is on, nothing when off.
   */
  async assertAdmitted(
    viewer: Viewer,
    chat: { ownerUserId: string; messageCount: number; creatorUserId: string },
  ): Promise<void> {
    if (!this.enabled || skipsWaitingRoom(viewer)) return;
    if (await touchAccess(this.deps.db, viewer.id, this.accessIdleS)) return;
    if (bypasses(viewer, chat)) return;
    throw waitingRoomRefusal(this.retryAfterS);
  }

  /** The character the viewer may chat with now whatever the line: their own bot, or a new chat. */
  private async bypassFor(viewer: Viewer, query: BypassQuery): Promise<string | null> {
    const { db } = this.deps;
    if (query.conversation_id) {
      const chat = await conversationForBypass(db, query.conversation_id);
      if (chat && chat.userId === viewer.id) {
        if (bypasses(viewer, { ownerUserId: chat.userId, messageCount: chat.messageCount }))
          return chat.characterId;
        if ((await characterCreator(db, chat.characterId)) === viewer.id) return chat.characterId;
      }
    }
    if (query.character_id && (await characterCreator(db, query.character_id)) === viewer.id) {
      return query.character_id;
    }
    return null;
  }

  /** The state as it stands: a lapsed access is said once (`expired`, no place yet) until the member joins again. */
  private async readLine(viewer: Viewer): Promise<QueueState> {
    const { capacity } = this.deps;
    const s = await readPlace(this.deps.db, { userId: viewer.id, capacity, idleSeconds: this.accessIdleS });
    if (s === null) return this.answer({ status: "not_in_line", retry_after: 0 });
    if (s === "lapsed") return this.answer({ status: "expired", retry_after: 0 });
    return this.present(s);
  }

  private async line(viewer: Viewer): Promise<QueueState> {
    const s = await passThroughLine(this.deps.db, {
      userId: viewer.id,
      priority: priorityOf(viewer),
      capacity: this.deps.capacity,
      idleSeconds: this.accessIdleS,
    });
    return this.present(s);
  }

  private present(s: LineState): QueueState {
    const { capacity } = this.deps;
    if (s.status === "access") {
      // Lapsed and let straight back in: said once, and asked again at once to show the access.
      if (s.wasExpired) return this.answer({ status: "expired", retry_after: 0 });
      return this.answer({ status: "access", expires_in: s.expiresIn });
    }
    const position = s.position ?? 1;
    const service = s.medianServiceSeconds ?? DEFAULT_SERVICE_S;
    // Ask again just after the slot this member is next for lapses, when that is sooner.
    const retryAfter =
      s.nextSlotIn === null ? this.retryAfterS : Math.min(this.retryAfterS, Math.max(1, s.nextSlotIn + 1));
    return this.answer({
      status: s.wasExpired ? "expired" : "waiting",
      position,
      time_left: Math.ceil((position / capacity) * service),
      retry_after: retryAfter,
    });
  }
}
