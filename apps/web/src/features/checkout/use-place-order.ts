import { checkoutEndpoints, type ManualPaymentRequest, type OrderResponse } from "@hearth/contract";
import { useState } from "react";
import { isApiRequestError } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import type { CardHandle } from "./card-field.tsx";
import {
  CARD_ERROR,
  type CountryInfo,
  type MethodId,
  type PersonalDetails,
  serverErrorLines,
} from "./rules.ts";
import { THREE_DS_FAILED, type ThreeDsResult } from "./three-ds.ts";

export interface OrderInput {
  method: MethodId;
  planId: string;
  offerId: string | null;
  promoCode: string | null;
  details: PersonalDetails;
  country: CountryInfo;
  card: CardHandle | null;
  /** Pay with the card on file (the saved card shown) rather than a new one. */
  savedCard: boolean;
}

const CHALLENGE_CLOSED = "The bank's check was closed before it finished. Press Pay to try again.";

/** The order's fields as both order endpoints take them (§7). */
export function orderBody(input: Omit<OrderInput, "method" | "card" | "savedCard">): ManualPaymentRequest {
  const { details, country } = input;
  return {
    plan_id: input.planId,
    offer_id: input.offerId,
    promo_code: input.promoCode,
    email: details.email.trim(),
    first_name: details.first_name.trim(),
    last_name: details.last_name.trim(),
    country: country.code,
    state: country.has_states ? details.state : null,
    postal_code: details.postal_code.trim().toUpperCase(),
    platform: "web",
  };
}

/**
 * Placing the order (§4 Checkout, §7): a card becomes a payment method at the provider, then
 * new_order answers Approved (success page), a 3-D Secure address (the dialog) or a decline;
 * a manual payment answers the page to go to. Failures are kept as lines for under the summary.
 */
export function usePlaceOrder({
  onApproved,
  onRedirect,
}: {
  onApproved: (orderId: string) => void;
  /** Leaving for another address (an alternative method's page). */
  onRedirect: (url: string) => void;
}) {
  const [placing, setPlacing] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [challenge, setChallenge] = useState<{ url: string; orderId: string } | null>(null);

  const settle = (response: OrderResponse) => {
    if (response.resp_msg === "Approved") return onApproved(response.order_id);
    if (response.iframe_3ds_url)
      return setChallenge({ url: response.iframe_3ds_url, orderId: response.order_id });
    if (response.resp_msg === "Declined") {
      return setErrors([response.error_message || "Your card was declined. Try another card."]);
    }
    // Pending: the success page says where the order stands.
    onApproved(response.order_id);
  };

  const place = async (input: OrderInput) => {
    setErrors([]);
    setPlacing(true);
    try {
      const body = orderBody(input);
      if (input.method === "manual") {
        const { url } = await call(checkoutEndpoints.manualPayment, { body });
        onRedirect(url);
        return;
      }
      if (input.savedCard) {
        // No token: the server charges the card on file.
        settle(await call(checkoutEndpoints.newOrder, { body }));
        return;
      }
      if (!input.card) {
        setErrors([CARD_ERROR]);
        return;
      }
      const made = await input.card.stripe.createPaymentMethod({
        type: "card",
        card: input.card.element,
        billing_details: {
          name: `${body.first_name} ${body.last_name}`,
          email: body.email,
          address: {
            country: body.country,
            ...(body.state ? { state: body.state } : {}),
            postal_code: body.postal_code,
          },
        },
      });
      if (!made.paymentMethod) {
        setErrors([made.error?.message || CARD_ERROR]);
        return;
      }
      settle(
        await call(checkoutEndpoints.newOrder, { body: { ...body, payment_token: made.paymentMethod.id } }),
      );
    } catch (error) {
      setErrors(
        isApiRequestError(error)
          ? serverErrorLines(error)
          : [error instanceof Error ? error.message : "Something went wrong. Please try again."],
      );
    } finally {
      setPlacing(false);
    }
  };

  const onChallengeResult = (result: ThreeDsResult) => {
    const open = challenge;
    if (!open) return;
    setChallenge(null);
    if (result.status === "success") onApproved(open.orderId);
    else setErrors([result.error_message || THREE_DS_FAILED]);
  };

  const dismissChallenge = () => {
    setChallenge(null);
    setErrors([CHALLENGE_CLOSED]);
  };

  return {
    place,
    placing,
    errors,
    clearErrors: () => setErrors((current) => (current.length ? [] : current)),
    challenge,
    onChallengeResult,
    dismissChallenge,
  };
}
