import type { GenerationEvent } from "@hearth/contract";
import type { FastifyReply } from "fastify";
import type { EventBus } from "../../../ports/bus.ts";
import { eventStream } from "./streams.ts";

const KEEP_ALIVE_MS = 15_000;

/** Opens a server-sent event stream on the reply (taken over from fastify). */
export function openEventStream(reply: FastifyReply) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    // Proxies (nginx) must not buffer a stream of tokens.
    "x-accel-buffering": "no",
  });
  const closed = new AbortController();
  raw.on("close", () => closed.abort());
  const keepAlive = setInterval(() => raw.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
  return {
    signal: closed.signal,
    send(event: GenerationEvent, id?: string) {
      raw.write(`${id ? `id: ${id}\n` : ""}data: ${JSON.stringify(event)}\n\n`);
    },
    end() {
      clearInterval(keepAlive);
      if (!raw.writableEnded) raw.end();
    },
  };
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
