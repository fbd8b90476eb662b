import { type ApiError, type AudioEvent, audioEvent, pathOf, voiceEndpoints } from "@hearth/contract";
import { queryOptions } from "@tanstack/react-query";
import { ApiRequestError } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { SseParser } from "../chat/sse.ts";

/** The voices (all of them; the modal filters by gender itself) and whether the server speaks. */
export const voicesQuery = queryOptions({
  queryKey: ["voices"],
  queryFn: ({ signal }) => call(voiceEndpoints.list, { query: { gender: "all" }, signal }),
  staleTime: 10 * 60_000,
});

export const setConversationVoice = (conversationId: string, voiceId: string | null) =>
  call(voiceEndpoints.setConversationVoice, { params: { id: conversationId }, body: { voice_id: voiceId } });

export const rateVoice = (messageId: string, rating: number) =>
  call(voiceEndpoints.rateVoice, { params: { id: messageId }, body: { rating } });

const skipKey = "hearth.voice.skipActions";

/** The member's Listen setting: leave narration in *asterisks* out (kept in this browser). */
export function readSkipActions(): boolean {
  try {
    return localStorage.getItem(skipKey) === "true";
  } catch {
    return false;
  }
}

export function writeSkipActions(skip: boolean) {
  try {
    localStorage.setItem(skipKey, String(skip));
  } catch {
    // Storage blocked: the setting lasts this page.
  }
}

/**
 * Listen: opens the message's audio stream and hands each event over as it arrives (one per
 * sentence piece), so playback starts with the first. Refusals (no plan, not yours) throw.
 */
export async function streamMessageAudio(
  messageId: string,
  opts: { skipActions: boolean; signal: AbortSignal; onEvent: (event: AudioEvent) => void },
): Promise<void> {
  const def = voiceEndpoints.messageAudio;
  const url = `${pathOf(def.path, { id: messageId })}?skip_actions=${opts.skipActions}`;
  const res = await fetch(url, { headers: { accept: "text/event-stream" }, signal: opts.signal });
  if (!res.ok || !res.body) {
    const payload = (await res.json().catch(() => ({}))) as Partial<ApiError>;
    throw new ApiRequestError(
      res.status,
      payload.code ?? "internal",
      payload.message ?? "The voice could not speak.",
      payload.issues,
      payload.error_type,
    );
  }
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const message of parser.push(decoder.decode(value, { stream: true }))) {
      const parsed = audioEvent.safeParse(JSON.parse(message.data));
      if (parsed.success) opts.onEvent(parsed.data);
    }
  }
}
