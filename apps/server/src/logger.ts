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

/**
 * One log line per request, when it ends: method, address, status and time (fastify's default
 * also writes a line when it starts). Each line is serialized, redacted and written to stdout on
 * the request's own turn, and the start line was a tenth of a small request's CPU
 * (docs/PERFORMANCE.md). An event stream the client leaves before its end logs its own line
 * (http/sse.ts), since its response never finishes.
 */
export class RequestLogLines extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else reply.log.info(line, "request completed");
  }
}
