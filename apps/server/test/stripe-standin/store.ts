import { randomBytes } from "node:crypto";
import { missing } from "./form.ts";
import type { InvoicePayment, ListObject, StoredObject, StripeEvent } from "./types.ts";

type Kind = StoredObject["object"];
type Of<K extends Kind> = Extract<StoredObject, { object: K }>;

export const API_VERSION = "2026-10-28.endive";

const readable: Record<Kind, string> = {
  customer: "customer",
  payment_method: "PaymentMethod",
  price: "price",
  coupon: "coupon",
  promotion_code: "promotion code",
  discount: "discount",
  subscription: "subscription",
  invoice: "invoice",
  invoice_payment: "invoice payment",
  payment_intent: "payment_intent",
  subscription_schedule: "subscription schedule",
};

export const listOf = <T>(data: T[], url: string): ListObject<T> => ({
  object: "list",
  data,
  has_more: false,
  url,
});

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Every object the stand-in knows, by id, plus what decides behaviour and is never rendered (card
 * numbers, which cards passed 3-D Secure, which invoice a PaymentIntent pays). State lives in
 * memory for one stand-in; events go to the webhook sender as they happen.
 */
export class Store {
  readonly objects = new Map<string, StoredObject>();
  readonly cardNumbers = new Map<string, string>();
  readonly authenticated = new Set<string>();
  readonly invoicePayments = new Map<string, string[]>();
  readonly intentInvoice = new Map<string, string>();
  readonly events: StripeEvent[] = [];

  constructor(
    /** Where the stand-in answers, for the URLs it hands out (3-D Secure pages). */
    readonly baseUrl: () => string,
    private onEvent: (event: StripeEvent) => void,
  ) {}

  now = () => Math.floor(Date.now() / 1000);

  id = (prefix: string) =>
    `${prefix}_${randomBytes(12)
      .toString("base64url")
      .replace(/[-_]/g, (c) => (c === "-" ? "Q" : "Z"))}`;

  put<T extends StoredObject>(object: T): T {
    this.objects.set(object.id, object);
    return object;
  }

  get<K extends Kind>(id: string, kind: K): Of<K> | undefined {
    const found = this.objects.get(id);
    return found?.object === kind ? (found as Of<K>) : undefined;
  }

  need<K extends Kind>(id: string, kind: K, param = "id"): Of<K> {
    const found = this.get(id, kind);
    if (!found) throw missing(readable[kind], id, param);
    return found;
  }

  all<K extends Kind>(kind: K): Of<K>[] {
    return [...this.objects.values()].filter((o): o is Of<K> => o.object === kind);
  }

  /** Records an event (a deep copy of the object as it is now) and hands it to the sender. */
  emit(type: string, object: StoredObject, previous?: Record<string, unknown>) {
    const event: StripeEvent = {
      id: this.id("evt"),
      object: "event",
      api_version: API_VERSION,
      created: this.now(),
      data: { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    this.events.push(event);
    this.onEvent(event);
  }

  /** The top-level fields of `before` that differ now: an `*.updated` event's previous_attributes. */
  changedFrom(before: StoredObject, after: StoredObject): Record<string, unknown> {
    const previous: Record<string, unknown> = {};
    const was = before as unknown as Record<string, unknown>;
    const now = after as unknown as Record<string, unknown>;
    for (const key of Object.keys(was)) {
      if (JSON.stringify(was[key]) !== JSON.stringify(now[key])) previous[key] = was[key];
    }
    return previous;
  }

  /** Fields Stripe leaves out unless expanded (`includable`): an invoice's payments. */
  private includable(object: Record<string, unknown>, field: string): unknown {
    if (object.object === "invoice" && field === "payments") {
      const id = String(object.id);
      const payments = (this.invoicePayments.get(id) ?? [])
        .map((p) => this.get(p, "invoice_payment"))
        .filter((p): p is InvoicePayment => p !== undefined);
      return structuredClone(listOf(payments, `/v1/invoices/${id}/payments`));
    }
    return undefined;
  }

  /** An object as the API answers it, with `expand[]` paths (`latest_invoice.payments`, `data.invoice`). */
  render(object: unknown, expand: string[] = []): unknown {
    let out = structuredClone(object);
    for (const path of expand) out = this.expandPath(out, path.split("."));
    return out;
  }

  private resolve(value: unknown): unknown {
    if (typeof value !== "string") return value;
    const found = this.objects.get(value);
    return found ? structuredClone(found) : value;
  }

  private expandPath(value: unknown, segments: string[]): unknown {
    if (Array.isArray(value)) return value.map((v) => this.expandPath(v, segments));
    if (segments.length === 0) return this.resolve(value);
    const node = this.resolve(value);
    if (!isRecord(node)) return node;
    const [head = "", ...rest] = segments;
    const child = head in node ? node[head] : this.includable(node, head);
    if (child === undefined) return node;
    node[head] = this.expandPath(child, rest);
    return node;
  }
}
