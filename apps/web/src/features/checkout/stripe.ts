/**
 * The card provider's browser script (Stripe.js), loaded from the address GET /api/checkout/options
 * names. Card numbers stay inside the provider's element: the page only ever holds the payment
 * method id it makes. Only the part of Stripe.js this page uses is typed here.
 */

export interface CardChange {
  complete: boolean;
  empty?: boolean;
  error?: { message?: string };
}

export interface CardElement {
  mount(target: HTMLElement | string): void;
  on(event: "change", handler: (change: CardChange) => void): void;
  destroy(): void;
}

/** Checkout sends all of it; a card changed in the portal keeps the details Stripe has. */
export interface BillingDetails {
  name?: string;
  email?: string;
  address?: { country: string; state?: string; postal_code: string };
}

export interface StripeClient {
  elements(): { create(type: "card", options?: Record<string, unknown>): CardElement };
  createPaymentMethod(params: {
    type: "card";
    card: CardElement;
    billing_details?: BillingDetails;
  }): Promise<{ paymentMethod?: { id: string }; error?: { message?: string } }>;
}

declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeClient;
  }
}

const scripts = new Map<string, Promise<void>>();

/** Adds the script once per page, however many screens ask for it. */
function loadScript(src: string): Promise<void> {
  const known = scripts.get(src);
  if (known) return known;
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.addEventListener("load", () => resolve());
    script.addEventListener("error", () => {
      scripts.delete(src); // a later visit may try again
      script.remove();
      reject(new Error("The card form could not be loaded. Check your connection and reload the page."));
    });
    document.head.appendChild(script);
  });
  scripts.set(src, loading);
  return loading;
}

const clients = new Map<string, StripeClient>();

/** The provider's client for this key, loading its script first. */
export async function loadStripe(scriptUrl: string, publishableKey: string): Promise<StripeClient> {
  await loadScript(scriptUrl);
  const make = window.Stripe;
  if (!make) throw new Error("The card form could not be started. Reload the page to try again.");
  let client = clients.get(publishableKey);
  if (!client) {
    client = make(publishableKey);
    clients.set(publishableKey, client);
  }
  return client;
}

/** The card element's text in the page's own colour and font (the real element is an iframe). */
export function cardStyle(host: HTMLElement): Record<string, unknown> {
  const css = getComputedStyle(host);
  return { style: { base: { color: css.color, fontFamily: css.fontFamily, fontSize: "16px" } } };
}
