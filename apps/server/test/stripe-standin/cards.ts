import { StripeFailure } from "./form.ts";

/**
 * Stripe's documented test cards (docs.stripe.com/testing), and what each does:
 * 4242424242424242 pays; 4000002500003155 asks for 3-D Secure on a payment the customer is present
 * for, and no more once authenticated; 4000000000003220 asks for it on every payment;
 * 4000000000000002 is declined (already when attached to a customer); 4000000000000341 attaches
 * but every charge is declined. Other numbers that pass the Luhn check pay like 4242….
 */
export const TEST_CARDS = {
  visa: "4242424242424242",
  authenticateOnce: "4000002500003155",
  authenticateAlways: "4000000000003220",
  declined: "4000000000000002",
  declinedOnCharge: "4000000000000341",
} as const;

export type ChargeVerdict = "pay" | "authenticate" | "decline";

/** What a charge with this card does; `authenticated` is whether it passed 3-D Secure before. */
export function verdict(number: string, authenticated: boolean): ChargeVerdict {
  if (number === TEST_CARDS.declined || number === TEST_CARDS.declinedOnCharge) return "decline";
  if (number === TEST_CARDS.authenticateAlways) return "authenticate";
  if (number === TEST_CARDS.authenticateOnce) return authenticated ? "pay" : "authenticate";
  return "pay";
}

export const cardError = (code: string, message: string, declineCode?: string) =>
  new StripeFailure(402, {
    type: "card_error",
    code,
    message,
    ...(declineCode ? { decline_code: declineCode } : {}),
  });

export const declinedError = () => cardError("card_declined", "Your card was declined.", "generic_decline");

export const authenticationRequiredError = () =>
  cardError(
    "authentication_required",
    "Your card was declined. This transaction requires authentication.",
    "authentication_required",
  );

export function brandOf(number: string): string {
  if (number.startsWith("4")) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  if (/^(6011|65)/.test(number)) return "discover";
  return "unknown";
}

export function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return number.length >= 12 && sum % 10 === 0;
}

/** The checks Stripe makes when a card PaymentMethod is created, with its messages. */
export function checkCard(card: { number: string; exp_month: number; exp_year: number; cvc: string }) {
  if (!/^\d{12,19}$/.test(card.number) || !luhn(card.number)) {
    throw cardError("incorrect_number", "Your card number is incorrect.");
  }
  if (!(card.exp_month >= 1 && card.exp_month <= 12)) {
    throw cardError("invalid_expiry_month", "Your card's expiration month is invalid.");
  }
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  const now = new Date();
  if (
    year < now.getUTCFullYear() ||
    (year === now.getUTCFullYear() && card.exp_month < now.getUTCMonth() + 1)
  ) {
    throw cardError("invalid_expiry_year", "Your card's expiration year is invalid.");
  }
  if (card.cvc && !/^\d{3,4}$/.test(card.cvc))
    throw cardError("invalid_cvc", "Your card's security code is invalid.");
  return year;
}
