import { createHmac } from "node:crypto";
import type { StripeEvent } from "./types.ts";

export interface Delivery {
  event: StripeEvent;
  /** "dropped" while webhooks are held back or no endpoint is set; else the endpoint's status or error. */
  outcome: "dropped" | { status: number } | { error: string };
}

/** Stripe's signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload" with the secret>`. */
export function signatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/**
 * Sends events to the configured endpoint one after another, signed as Stripe signs them. A test
 * can hold them back (they are dropped, as if the endpoint never answered) to exercise a re-sync.
 */
export class WebhookSender {
  private url: string | null = null;
  private dropping = false;
  private queue: Promise<void> = Promise.resolve();
  readonly deliveries: Delivery[] = [];

  constructor(private secret: string) {}

  sendTo(url: string | null) {
    this.url = url;
  }

  drop(on: boolean) {
    this.dropping = on;
  }

  send(event: StripeEvent) {
    const url = this.url;
    if (!url || this.dropping) {
      this.deliveries.push({ event, outcome: "dropped" });
      return;
    }
    const payload = JSON.stringify(event, null, 2);
    this.queue = this.queue.then(async () => {
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json; charset=utf-8",
            "stripe-signature": signatureHeader(payload, this.secret),
            "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          },
          body: payload,
        });
        await res.arrayBuffer();
        this.deliveries.push({ event, outcome: { status: res.status } });
      } catch (error) {
        this.deliveries.push({ event, outcome: { error: String(error) } });
      }
    });
  }

  /** Resolves once every event sent so far has been delivered (or failed). */
  async flush() {
    let seen: Promise<void>;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }
}
