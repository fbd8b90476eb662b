import { type QueueState, queueEndpoints } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useRef, useState } from "react";
import { useAppSettings } from "../../lib/app-settings.ts";
import { call } from "../../lib/client.ts";
import { useMe } from "../../lib/session.ts";
import { nextCheckMs, openView, skipsLine, viewOf, type WaitingRoomView } from "./waiting-room.ts";

export const waitingRoomKey = (characterId: string, conversationId: string) =>
  ["waiting-room", characterId, conversationId] as const;

export interface WaitingRoom extends WaitingRoomView {
  /** The viewer's plan already skips the line (no "Get a Taste" offer). */
  skips: boolean;
  /** Ask the queue again now (a send the server refused with 429 waitingRoom). */
  recheck: () => void;
  /** Hide the "your spot expired" notice. */
  dismissExpired: () => void;
}

/**
 * Reads the room's state (GET, which changes nothing) and, when the viewer needs a place in line
 * (not in it, waiting, or their access lapsed), joins it (POST), which also keeps the place and
 * lets them in once there is room.
 */
async function askQueue(
  characterId: string,
  conversationId: string,
  signal: AbortSignal,
): Promise<QueueState> {
  const chat = { character_id: characterId, conversation_id: conversationId };
  const read = await call(queueEndpoints.state, { query: chat, signal });
  if (read.status === "access" || read.status === "refresh") return read;
  return call(queueEndpoints.join, { body: chat, signal });
}

/**
 * The viewer's place in the waiting room for this chat: a member without access is put in line
 * (askQueue). It asks again after `retry_after` while waiting, at once on
 * `refresh`, and when access would lapse; a failed read counts active subscribers as having
 * access and everyone else as waiting. Signed out (nothing to chat with): always open.
 */
export function useWaitingRoom(
  characterId: string,
  conversationId: string,
  /**
   * The chat's message count once no reply is being written (null meanwhile): a change asks
   * again, since a chat of one message skips the line and chatting keeps an access alive.
   */
  settledMessages: number | null,
): WaitingRoom {
  const me = useMe();
  const timing = useAppSettings().limits.waiting_room;
  const query = useQuery({
    queryKey: waitingRoomKey(characterId, conversationId),
    queryFn: ({ signal }) => askQueue(characterId, conversationId, signal),
    enabled: me !== null,
    staleTime: 0,
    refetchInterval: (q) => nextCheckMs(q.state.data, q.state.status === "error", timing),
  });

  // `refresh` says only "ask again": keep showing the last settled answer meanwhile. So does an
  // `expired` without a place in line: the access lapsed but there was room, so it is back at once.
  const settled = useRef<QueueState | undefined>(undefined);
  const data = query.data;
  const transient = data?.status === "refresh" || (data?.status === "expired" && data.position === null);
  if (data && !transient) settled.current = data;
  const state = settled.current ?? query.data;
  const view = me ? viewOf(state, query.isError, me, characterId, timing) : openView;

  // `expired` is said once, then the member is simply waiting: the notice stays until they
  // dismiss it or get access again.
  const [expiredNotice, setExpiredNotice] = useState(false);
  useEffect(() => {
    if (view.expired) setExpiredNotice(true);
    else if (!view.gated) setExpiredNotice(false);
  }, [view.expired, view.gated]);

  const { refetch } = query;
  const recheck = useCallback(() => void refetch(), [refetch]);
  const roomOn = Boolean(data?.enabled);
  const seenMessages = useRef(settledMessages);
  useEffect(() => {
    if (settledMessages === null || settledMessages === seenMessages.current) return;
    seenMessages.current = settledMessages;
    if (roomOn) recheck();
  }, [settledMessages, roomOn, recheck]);
  const dismissExpired = useCallback(() => setExpiredNotice(false), []);

  return {
    ...view,
    expired: view.gated && expiredNotice,
    skips: skipsLine(me),
    recheck,
    dismissExpired,
  };
}

/**
 * A send the server refused with 429 waitingRoom: ask the queue again, and once its banner is
 * up, drop the refusal (the banner says the rest).
 */
export function useRecheckOnRefusal(room: WaitingRoom, refused: boolean, dismiss: () => void) {
  const { recheck, gated } = room;
  useEffect(() => {
    if (refused) recheck();
  }, [refused, recheck]);
  useEffect(() => {
    if (refused && gated) dismiss();
  }, [refused, gated, dismiss]);
}

/**
 * Whether this chat is waiting without a bypass: message rows and the header read it to hide
 * regenerate, report and like (the server would refuse them until the member's turn).
 */
export const WaitingGateContext = createContext(false);

export function useWaitingGate(): boolean {
  return useContext(WaitingGateContext);
}
