import type { Subscription } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { checkoutOptionsQuery } from "../checkout/api.ts";
import { CardField, type CardHandle } from "../checkout/card-field.tsx";
import { CARD_ERROR } from "../checkout/rules.ts";
import { paymentMethod } from "./rules.ts";

/**
 * Change Card (§2.2): the provider's own card element in a dialog. The card becomes a payment
 * method at the provider in the browser, and only its id goes to Hearth (action change_card).
 */
export function ChangeCardDialog({
  sub,
  open,
  onOpenChange,
  onSave,
  onCloseAutoFocus,
}: {
  sub: Subscription;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Sends the new card's token; resolves once the server has answered (the portal shows it). */
  onSave: (cardToken: string) => Promise<unknown>;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent
          onCloseAutoFocus={onCloseAutoFocus}
          title="Change your card"
          description={
            sub.credit_card && !sub.is_card_deleted
              ? `Future payments are taken from this card instead of your ${paymentMethod(sub)}.`
              : "Future payments are taken from this card."
          }
        >
          <CardForm onSave={onSave} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function CardForm({ onSave }: { onSave: (cardToken: string) => Promise<unknown> }) {
  const options = useQuery(checkoutOptionsQuery);
  const [card, setCard] = useState<CardHandle | null>(null);
  const [complete, setComplete] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    if (!card) return;
    setSaving(true);
    setError(null);
    try {
      const made = await card.stripe.createPaymentMethod({ type: "card", card: card.element });
      if (!made.paymentMethod) {
        setError(made.error?.message || CARD_ERROR);
        return;
      }
      await onSave(made.paymentMethod.id);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      {options.data?.card ? (
        <CardField
          provider={options.data.card}
          onCard={(handle) => {
            setCard(handle);
            if (!handle) setComplete(false);
          }}
          onChange={(change) => {
            setComplete(change.complete && !change.error);
            setError(null);
          }}
        />
      ) : options.isError ? (
        <p role="alert" className="text-sm text-danger">
          The card form couldn't be loaded: {errorMessage(options.error)}
        </p>
      ) : (
        <span className="flex items-center gap-2 text-sm text-muted">
          <Spinner size="sm" label={null} /> Loading the card form…
        </span>
      )}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Keep my card</Button>
        </DialogClose>
        <Button loading={saving} disabled={!card || !complete} onClick={() => void save()}>
          Save card
        </Button>
      </DialogFooter>
    </>
  );
}
