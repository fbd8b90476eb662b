import type { OrderResponse } from "@hearth/contract";

/**
 * The message /checkout/3ds-complete (inside the 3-D Secure iframe) sends the checkout page when
 * the bank's check is over (§4 Checkout). Only messages from Hearth's own origin count.
 */

export const THREE_DS_MESSAGE = "hearth-3ds";

export interface ThreeDsResult {
  type: typeof THREE_DS_MESSAGE;
  status: "success" | "failure";
  error_message: string | null;
}

/** The result in a window message, or null for any other message (or one from another origin). */
export function threeDsResult(
  event: { origin: string; data: unknown },
  ownOrigin: string,
): ThreeDsResult | null {
  if (event.origin !== ownOrigin) return null;
  const data = event.data as Partial<ThreeDsResult> | null;
  if (!data || typeof data !== "object" || data.type !== THREE_DS_MESSAGE) return null;
  if (data.status !== "success" && data.status !== "failure") return null;
  return {
    type: THREE_DS_MESSAGE,
    status: data.status,
    error_message: typeof data.error_message === "string" ? data.error_message : null,
  };
}

/** What the failure says when the order gave no reason. */
export const THREE_DS_FAILED = "Your bank could not confirm this payment. Try again or use another card.";

/** The confirmed order as the message the checkout page listens for: Approved is success. */
export function resultOf(response: OrderResponse): ThreeDsResult {
  const approved = response.resp_msg === "Approved";
  return {
    type: THREE_DS_MESSAGE,
    status: approved ? "success" : "failure",
    error_message: approved ? null : (response.error_message ?? THREE_DS_FAILED),
  };
}
