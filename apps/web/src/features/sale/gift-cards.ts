import type { PaidRole, SaleOffer } from "@hearth/contract";

/** One gift card of the sale page: a tier's monthly offer, and its yearly one when there is one. */
export interface GiftCard {
  role: PaidRole;
  title: string;
  monthly: SaleOffer;
  annual: SaleOffer | null;
}

const ORDER: PaidRole[] = ["minimal", "basic", "premium"];

/**
 * The cards, cheapest tier first: one per tier that has a monthly offer (§9: three tiers).
 * A tier with only a yearly offer shows that one as its card.
 */
export function giftCards(offers: SaleOffer[]): GiftCard[] {
  return ORDER.flatMap((role) => {
    const mine = offers.filter((o) => o.role === role);
    const monthly = mine.find((o) => o.period === "monthly");
    const annual = mine.find((o) => o.period === "annual") ?? null;
    const main = monthly ?? annual;
    if (!main) return [];
    return [{ role, title: main.title, monthly: main, annual: monthly ? annual : null }];
  });
}

/**
 * §4 Sale gift card: locked (greyed) until one click reveals it, and revealed for good. The
 * confetti fires on that first click only.
 */
export type RevealState = ReadonlySet<PaidRole>;

export function reveal(state: RevealState, role: PaidRole): { state: RevealState; confetti: boolean } {
  if (state.has(role)) return { state, confetti: false };
  return { state: new Set([...state, role]), confetti: true };
}

/** Where Claim Offer Now goes: checkout with the plan and the offer it applies. */
export function claimHref(offer: Pick<SaleOffer, "plan_id" | "offer_id">): string {
  const search = new URLSearchParams({ plan_id: offer.plan_id, offer_id: offer.offer_id });
  return `/checkout?${search}`;
}

/** 7.5 → "$7.50" in the offer's currency. */
export function money(amount: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(
    amount,
  );
}
