import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_PLANS } from "../../src/features/billing/plans.ts";
import { challengePage, finishedPage, returnTo, stripeJs } from "./browser.ts";
import { type PlanSeed, type PromotionSeed, seedPrice, seedPromotion } from "./catalog.ts";
import { list, parseForm, StripeFailure, str } from "./form.ts";
import { Payments } from "./payments.ts";
import { checkParams, routes } from "./routes.ts";
import { type AdvanceOptions, Schedules } from "./schedules.ts";
import { API_VERSION, Store } from "./store.ts";
import { Subscriptions } from "./subscriptions.ts";
import { WebhookSender } from "./webhooks.ts";

export { TEST_CARDS } from "./cards.ts";
export type { PlanSeed, PromotionSeed } from "./catalog.ts";
export { signatureHeader } from "./webhooks.ts";

export interface StripeStandInOptions {
  /** Prices to seed, one per plan, with lookup_key = plan id (default: Hearth's DEFAULT_PLANS). */
  plans?: PlanSeed[];
  /** Promotion codes customers may enter. */
  promotionCodes?: PromotionSeed[];
  /** Automatic tax in percent, by "US-NY" (country-state) or "DE" (country); none by default. */
  taxRates?: Record<string, number>;
  /** Where to send signed webhooks from the start (or later with sendWebhooksTo). */
  webhookUrl?: string;
  /** Default: any free port on 127.0.0.1. */
  port?: number;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, {
    "content-type": "application/json",
    "request-id": `req_${randomBytes(7).toString("hex")}`,
    "stripe-version": API_VERSION,
    ...headers,
  });
  res.end(JSON.stringify(body, null, 2));
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });

/**
 * A local stand-in for Stripe's API, Stripe.js and its 3-D Secure page, for tests only (never
 * imported from src/). The adapter talks to it through the official SDK with `apiUrl`; a
 * checkout page loads `scriptUrl`. State is in memory and dies with `close()`.
 */
export async function startStripeStandIn(options: StripeStandInOptions = {}) {
  const token = () => randomBytes(12).toString("hex");
  const secretKey = `sk_test_standin${token()}`;
  const publishableKey = `pk_test_standin${token()}`;
  const webhookSecret = `whsec_${token()}`;
  let base = "";
  const webhooks = new WebhookSender(webhookSecret);
  webhooks.sendTo(options.webhookUrl ?? null);
  const store = new Store(
    () => base,
    (event) => webhooks.send(event),
  );
  const payments = new Payments(store, options.taxRates ?? {});
  const subscriptions = new Subscriptions(store, payments);
  const schedules = new Schedules(store, payments, subscriptions);
  const table = routes(store, payments, subscriptions, schedules);
  const plans: PlanSeed[] = options.plans ?? DEFAULT_PLANS.map((p) => ({ ...p }));
  for (const plan of plans) seedPrice(store, plan);
  for (const promotion of options.promotionCodes ?? []) seedPromotion(store, promotion);
  /** Idempotency-Key → the first answer, replayed for a retry with the same request. */
  const idempotent = new Map<string, { request: string; status: number; body: unknown }>();
  const cors = { "access-control-allow-origin": "*" };

  async function api(req: IncomingMessage, res: ServerResponse, url: URL) {
    const method = req.method ?? "GET";
    const raw = method === "POST" ? await readBody(req) : "";
    const params = parseForm(method === "POST" ? raw : url.search.slice(1));
    const route = table.find((r) => r.method === method && r.pattern.test(url.pathname));
    if (!route) {
      throw new StripeFailure(404, {
        type: "invalid_request_error",
        message: `Unrecognized request URL (${method}: ${url.pathname}). The Stripe stand-in serves only the routes Hearth uses.`,
      });
    }
    const bearer = req.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
    const key = bearer ?? (route.publishable ? str(params.key) : undefined);
    if (key !== secretKey && !(route.publishable && key === publishableKey)) {
      throw new StripeFailure(401, {
        type: "invalid_request_error",
        message: key?.startsWith("pk_")
          ? "This API call cannot be made with a publishable API key. Please use a secret API key."
          : `Invalid API Key provided: ${(key ?? "").slice(0, 12)}***`,
      });
    }
    const idempotencyKey = method === "POST" ? req.headers["idempotency-key"] : undefined;
    const request = `${method} ${url.pathname} ${raw}`;
    if (typeof idempotencyKey === "string") {
      const seen = idempotent.get(idempotencyKey);
      if (seen && seen.request !== request) {
        throw new StripeFailure(400, {
          type: "idempotency_error",
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        });
      }
      if (seen) return json(res, seen.status, seen.body, { "idempotent-replayed": "true", ...cors });
    }
    let status = 200;
    let body: unknown;
    try {
      checkParams(params, route.schema);
      const path = route.pattern.exec(url.pathname)?.slice(1) ?? [];
      body = store.render(route.run({ params, path }), list(params.expand).map(String));
    } catch (error) {
      if (!(error instanceof StripeFailure)) throw error;
      status = error.status;
      body = { error: error.body };
    }
    if (typeof idempotencyKey === "string") idempotent.set(idempotencyKey, { request, status, body });
    json(res, status, body, route.publishable ? cors : {});
  }

  async function challenge(req: IncomingMessage, res: ServerResponse, id: string) {
    const pi = store.need(id, "payment_intent");
    const action = `${base}/3ds/${pi.id}`;
    if (req.method === "GET") {
      res.writeHead(pi.status === "requires_action" ? 200 : 409, {
        "content-type": "text/html; charset=utf-8",
      });
      res.end(challengePage(pi, action));
      return;
    }
    const result = str(parseForm(await readBody(req)).result);
    if (result !== "complete" && result !== "fail")
      throw new StripeFailure(400, {
        type: "invalid_request_error",
        message: "result must be complete or fail",
      });
    const returnUrl = payments.authenticate(pi.id, result === "complete");
    if (returnUrl) {
      res.writeHead(303, { location: returnTo(returnUrl, pi) });
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(finishedPage());
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const handle = async () => {
      if (req.method === "OPTIONS") {
        res.writeHead(204, {
          ...cors,
          "access-control-allow-methods": "GET, POST",
          "access-control-allow-headers": "Authorization, Content-Type",
          "access-control-max-age": "600",
        });
        return res.end();
      }
      if (req.method === "GET" && url.pathname === "/v3/") {
        res.writeHead(200, {
          "content-type": "text/javascript; charset=utf-8",
          "cache-control": "no-store",
          "cross-origin-resource-policy": "cross-origin",
          ...cors,
        });
        return res.end(stripeJs(base));
      }
      const challenged = url.pathname.match(/^\/3ds\/(pi_\w+)$/);
      if (challenged?.[1]) return challenge(req, res, challenged[1]);
      return api(req, res, url);
    };
    handle().catch((error: unknown) => {
      if (error instanceof StripeFailure) return json(res, error.status, { error: error.body }, cors);
      json(res, 500, { error: { type: "api_error", message: `Stand-in failure: ${String(error)}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    /** Give the adapter this as `apiUrl` (the SDK's protocol, host and port). */
    apiUrl: base,
    /** Stripe.js stand-in for the checkout page (`client().scriptUrl`). */
    scriptUrl: `${base}/v3/`,
    publishableKey,
    secretKey,
    webhookSecret,
    /** Every event that happened, sent or not. */
    events: store.events,
    /** What became of each event: delivered (status), failed, or dropped. */
    deliveries: webhooks.deliveries,
    /** Where signed webhooks go from now on; null stops sending. */
    sendWebhooksTo: (url: string | null) => webhooks.sendTo(url),
    /** While on, events happen but are never sent (a missed webhook, for the re-sync). */
    dropWebhooks: (on: boolean) => webhooks.drop(on),
    /** Resolves when every webhook sent so far got its answer. */
    flushWebhooks: () => webhooks.flush(),
    /** Ends the subscription's period now: renewal (declined with `fail`), or the end of a cancelled one. */
    advanceClock: (subscriptionId: string, opts?: AdvanceOptions) =>
      structuredClone(schedules.advance(subscriptionId, opts)),
    /** A card PaymentMethod made the way the browser's Stripe.js makes it (publishable key, over HTTP). */
    async createPaymentMethod(
      number: string,
      card: { expMonth?: number; expYear?: number; cvc?: string } = {},
    ) {
      const form = new URLSearchParams({
        type: "card",
        "card[number]": number,
        "card[exp_month]": String(card.expMonth ?? 12),
        "card[exp_year]": String(card.expYear ?? new Date().getUTCFullYear() + 3),
        "card[cvc]": card.cvc ?? "123",
        key: publishableKey,
      });
      const res = await fetch(`${base}/v1/payment_methods`, { method: "POST", body: form });
      const body = (await res.json()) as { id?: string; error?: { message: string } };
      if (!res.ok || !body.id)
        throw new Error(body.error?.message ?? `payment_methods answered ${res.status}`);
      return body.id;
    },
    /**
     * Answers a 3-D Secure challenge the way its page's buttons do (a POST to the form's action);
     * gives the address the browser is sent back to, or null when the intent had no return_url.
     */
    async challenge(challengeUrl: string, result: "complete" | "fail") {
      const html = await (await fetch(challengeUrl)).text();
      const action = html.match(/<form method="post" action="([^"]+)"/)?.[1];
      if (!action)
        throw new Error("The challenge page has no form: the payment is not waiting for authentication.");
      const res = await fetch(action.replace(/&amp;/g, "&"), {
        method: "POST",
        body: new URLSearchParams({ result }),
        redirect: "manual",
      });
      return res.headers.get("location");
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;
