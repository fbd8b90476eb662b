import { HttpError } from "../../http/errors.ts";
import { PaymentError } from "../../ports/payments.ts";

const statusOf: Record<PaymentError["kind"], [number, "paymentFailed" | "invalidRequest" | "conflict"]> = {
  declined: [402, "paymentFailed"],
  requires_action: [402, "paymentFailed"],
  invalid: [400, "invalidRequest"],
  bad_signature: [400, "invalidRequest"],
  not_configured: [409, "conflict"],
};

/**
 * Runs work that calls the payment provider; a refusal it reports (a declined card, an address
 * its tax service cannot place, a plan with no price there) becomes an answer with the
 * provider's sentence instead of a 500.
 */
export async function viaProvider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    const [status, code] = statusOf[error.kind];
    throw new HttpError(status, code, error.message);
  }
}
