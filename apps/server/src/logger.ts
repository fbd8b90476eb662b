import type { FastifyServerOptions } from "fastify";

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
