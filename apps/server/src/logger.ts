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
        'res.headers["set-cookie"]',
        "*.password",
        "*.secret",
        "*.apiKey",
        "*.api_key",
      ],
      censor: "[redacted]",
    },
  };
}
