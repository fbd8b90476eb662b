import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import pino from "pino";

/** How long a log line may wait in the buffer before it is written (see `logDestination`). */
const LOG_FLUSH_MS = 200;
/** Buffered lines are written at once when they reach this many bytes. */
const LOG_BUFFER_BYTES = 4096;

let stdoutDestination: ReturnType<typeof bufferedDestination> | undefined;

/**
 * Standard output, buffered: lines are written when 4 KB have gathered or 200 ms after the
 * first, and at once as the process exits (pino flushes on `exit`, which a crash's handler and
 * every `process.exit` run). pino's default writes each line as it comes, through libuv's thread
 * pool: a thread woken, a write, the event loop woken again, for every request (an accept's 35
 * system calls became 26; docs/PERFORMANCE.md). A process killed outright (SIGKILL)
 * loses at most the last 200 ms of lines. One per process: every server in it writes to fd 1.
 */
export function logDestination(): pino.DestinationStream {
  stdoutDestination ??= bufferedDestination(1);
  return stdoutDestination;
}

/** Writes what standard output's buffer holds now (a line that someone waits for). */
export function flushLog(): void {
  stdoutDestination?.flush();
}

/** A file descriptor or path, written as `logDestination` describes. */
export function bufferedDestination(dest: number | string) {
  return pino.destination({ dest, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS });
}

/**
 * Structured JSON logs (pino). Cookies, authorization headers and secrets are redacted so
 * they never reach log files. Lines go to `stream`, standard output (buffered) by default.
 */
export function loggerOptions(
  level: string,
  stream: pino.DestinationStream = logDestination(),
): FastifyServerOptions["logger"] {
  return {
    level,
    stream,
    redact: {
      paths: [
        "req.headers.cookie",
        "req.headers.authorization",
        'req.headers["stripe-signature"]',
        'res.headers["set-cookie"]',
        "*.password",
        "*.secret",
        "*.apiKey",
        "*.api_key",
        "*.secretKey",
        "*.webhookSecret",
        "*.payment_token",
        "*.card_token",
      ],
      censor: "[redacted]",
    },
  };
}

/** A request's log line: its method, address, status and time. */
export function requestLine(reply: FastifyReply) {
  return { req: reply.request, res: reply, responseTime: reply.elapsedTime };
}

/**
 * One log line per request, when it ends (fastify's default also writes a line when it starts).
 * Each line is serialized, redacted and written to stdout on the request's own turn; a profile
 * put the start line at about 5% of a small request's samples (docs/PERFORMANCE.md). An event
 * stream the client leaves before its end logs its own line (http/sse.ts), since its response
 * never finishes.
 */
export class RequestLogLines extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = requestLine(reply);
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}
