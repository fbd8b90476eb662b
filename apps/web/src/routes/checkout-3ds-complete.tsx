import { useSearch } from "@tanstack/react-router";
import { ThreeDsComplete } from "../features/checkout/three-ds-complete.tsx";

/** /checkout/3ds-complete?order_id=…: the end of the 3-D Secure check, inside its iframe (open route). */
export default function CheckoutThreeDsCompleteScreen() {
  const { order_id } = useSearch({ strict: false }) as { order_id?: unknown };
  return <ThreeDsComplete orderId={typeof order_id === "string" && order_id ? order_id : null} />;
}
