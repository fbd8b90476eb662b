import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { loggerOptions } from "./logger.ts";

describe("the log redaction", () => {
  it("censors cookies, keys, payment tokens and webhook signatures wherever they appear", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const options = loggerOptions("info") as { redact: { paths: string[]; censor: string } };
    const log = pino({ redact: options.redact }, sink);
    log.info({
      req: { headers: { cookie: "session=abc", "stripe-signature": "t=1,v1=beef" } },
      stripe: { secretKey: "sk_live_secret", webhookSecret: "whsec_secret" },
      body: { payment_token: "pm_123", card_token: "pm_456", password: "hunter2" },
    });
    const line = lines.join("");
    for (const secret of [
      "session=abc",
      "v1=beef",
      "sk_live_secret",
      "whsec_secret",
      "pm_123",
      "pm_456",
      "hunter2",
    ]) {
      expect(line).not.toContain(secret);
    }
    expect(line).toContain("[redacted]");
  });
});
