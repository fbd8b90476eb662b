import type { FastifyReply } from "fastify";
import { requestLine } from "../logger.ts";

const KEEP_ALIVE_MS = 15_000;

/**
 * Opens a server-sent event stream on the reply (taken over from fastify), with a comment every
 * 15 s so proxies keep it open. `flushHeaders` sends the head at once (the client learns the
 * request was accepted before the first event); without it the head leaves with the first write.
 */
export function openSse<E>(reply: FastifyReply, opts: { flushHeaders?: boolean } = {}) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-transform",
    connection: "keep-alive",
    // Proxies (nginx) must not buffer a stream of events.
    "x-accel-buffering": "no",
  });
  if (opts.flushHeaders) raw.flushHeaders();
  const closed = new AbortController();
  raw.on("close", () => {
    closed.abort();
    // A finished response had its line (logger.ts); one the client left did not.
    if (!raw.writableFinished) reply.log.info(requestLine(reply), "request closed by the client");
  });
  const keepAlive = setInterval(() => raw.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
  // Events sent in one turn of the event loop leave in one write (one chunk, one syscall): a
  // process behind under load has several tokens of a reply ready at once, and a write per token
  // was a good part of what each token cost it.
  let pending = "";
  const flush = () => {
    if (pending && !raw.writableEnded) raw.write(pending);
    pending = "";
  };
  return {
    signal: closed.signal,
    send(event: E, id?: string) {
      if (!pending) process.nextTick(flush);
      pending += `${id ? `id: ${id}\n` : ""}data: ${JSON.stringify(event)}\n\n`;
    },
    /** Writes what was sent so far now, instead of at the end of this turn. */
    flush,
    /** Ends the stream; what is pending leaves in the same write as the response's end. */
    end() {
      clearInterval(keepAlive);
      if (!raw.writableEnded) raw.end(pending || undefined);
      pending = "";
    },
  };
}
