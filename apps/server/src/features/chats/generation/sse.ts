import type { GenerationEvent } from "@hearth/contract";
import type { FastifyReply } from "fastify";
import { openSse } from "../../../http/sse.ts";
import type { EventBus } from "../../../ports/bus.ts";
import { eventStream } from "./streams.ts";

/** Opens a server-sent event stream of a generation's events on the reply. */
export function openEventStream(reply: FastifyReply) {
  return openSse<GenerationEvent>(reply);
}

export type EventStreamWriter = ReturnType<typeof openEventStream>;

/**
 * Forwards a generation's events from the bus to the client, from after `afterId`, until the
 * generation ends or the client leaves (the generation goes on without it). With `waitMs`, gives
 * up when nothing arrives in time and leaves the stream open; answers whether the end was sent.
 */
export async function pipeGeneration(
  bus: EventBus,
  generationId: string,
  afterId: string,
  out: EventStreamWriter,
  waitMs?: number,
): Promise<boolean> {
  const stop = new AbortController();
  const onClose = () => stop.abort();
  out.signal.addEventListener("abort", onClose, { once: true });
  const timer = waitMs ? setTimeout(() => stop.abort(), waitMs) : null;
  let ended = false;
  try {
    for await (const event of bus.read<GenerationEvent>(eventStream(generationId), afterId, stop.signal)) {
      if (timer) timer.refresh();
      out.send(event.data, event.id);
      if (event.data.type === "done" || event.data.type === "error") {
        ended = true;
        // The response ends with its last event, in the same write, before the reader's own
        // cleanup: a client that stops reading at `done` then finds the response complete and
        // sends its next request on the same connection. A new connection costs an event-loop
        // turn to accept (libuv takes one per turn), and under load those turns are long.
        out.end();
        break;
      }
    }
  } finally {
    if (timer) clearTimeout(timer);
    out.signal.removeEventListener("abort", onClose);
    if (!waitMs) out.end();
  }
  return ended;
}
