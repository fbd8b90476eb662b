import { useSearch } from "@tanstack/react-router";
import { SuccessPage } from "../features/checkout/success-page.tsx";

/** /checkout/success?order_id=… (accounts-billing-admin §2.2 Checkout success), signed in only. */
export default function CheckoutSuccessScreen() {
  const { order_id } = useSearch({ strict: false }) as { order_id?: unknown };
  return <SuccessPage orderId={typeof order_id === "string" && order_id ? order_id : null} />;
}
