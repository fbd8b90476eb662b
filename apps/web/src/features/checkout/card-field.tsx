import { useEffect, useRef, useState } from "react";
import { Spinner } from "../../ui/spinner.tsx";
import { CARD_ERROR } from "./rules.ts";
import { type CardChange, type CardElement, cardStyle, loadStripe, type StripeClient } from "./stripe.ts";

export interface CardHandle {
  stripe: StripeClient;
  element: CardElement;
}

/**
 * The provider's card element (number, expiry, cvc), mounted into the page. It reports whether
 * the card is complete; the page never sees the number. §5: an invalid card shows
 * 'Enter a valid card, expiration date and cvv.'
 */
export function CardField({
  provider,
  onCard,
  onChange,
}: {
  provider: { publishable_key: string; script_url: string };
  /** The mounted element (for createPaymentMethod), or null while it isn't. */
  onCard: (card: CardHandle | null) => void;
  onChange: (change: CardChange) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | { failed: string }>("loading");
  const [invalid, setInvalid] = useState(false);
  // The latest callbacks, without re-mounting the element when the parent re-renders.
  const callbacks = useRef({ onCard, onChange });
  callbacks.current = { onCard, onChange };

  useEffect(() => {
    let element: CardElement | null = null;
    let cancelled = false;
    loadStripe(provider.script_url, provider.publishable_key)
      .then((stripe) => {
        if (cancelled || !host.current) return;
        element = stripe.elements().create("card", cardStyle(host.current));
        element.on("change", (change) => {
          setInvalid(Boolean(change.error));
          callbacks.current.onChange(change);
        });
        element.mount(host.current);
        setState("ready");
        callbacks.current.onCard({ stripe, element });
      })
      .catch((error: unknown) => {
        if (!cancelled) setState({ failed: error instanceof Error ? error.message : String(error) });
      });
    return () => {
      cancelled = true;
      element?.destroy();
      callbacks.current.onCard(null);
    };
  }, [provider.script_url, provider.publishable_key]);

  return (
    <fieldset
      className="flex min-w-0 flex-col gap-1.5"
      aria-describedby={invalid ? "checkout-card-error" : undefined}
    >
      <legend className="mb-1.5 text-sm font-medium">Card details</legend>
      {state === "loading" ? (
        <span className="flex items-center gap-2 text-sm text-muted">
          <Spinner size="sm" label={null} /> Loading the card form…
        </span>
      ) : null}
      {typeof state === "object" ? (
        <p className="text-sm text-danger" role="alert">
          {state.failed}
        </p>
      ) : null}
      <div
        ref={host}
        className={
          typeof state === "object"
            ? "hidden"
            : "min-h-11 rounded-lg border border-border-strong bg-surface px-3 py-2.5 text-fg focus-within:border-accent"
        }
      />
      {invalid ? (
        <p id="checkout-card-error" className="text-sm text-danger" role="alert">
          {CARD_ERROR}
        </p>
      ) : null}
    </fieldset>
  );
}
