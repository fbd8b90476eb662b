import { useSearch } from "@tanstack/react-router";
import { CheckoutPage } from "../features/checkout/checkout-page.tsx";
import { parseCheckoutSearch } from "../features/checkout/rules.ts";

/** /checkout?plan_id=…&offer_id=…&coupon=… (accounts-billing-admin §2.2), signed in only. */
export default function CheckoutScreen() {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  return <CheckoutPage search={parseCheckoutSearch(search)} />;
}
