import { type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";

/**
 * Structured JSON logs (pino). Cookies, authorization headers and secrets are redacted so
 * they never reach log files.
 */
export function loggerOptions(level: string): FastifyServerOptions["logger"] {
  return {
    level,
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
