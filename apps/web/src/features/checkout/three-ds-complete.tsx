import { checkoutEndpoints } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { Button } from "../../ui/button.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { resultOf, THREE_DS_MESSAGE, type ThreeDsResult } from "./three-ds.ts";

type Outcome = { kind: "checking" } | { kind: "done"; result: ThreeDsResult };

/**
 * /checkout/3ds-complete: where the bank's check returns, inside the 3-D Secure iframe. It asks the
 * server where the payment stands and tells the checkout page around it (same origin only). Opened
 * on its own (no page around it), it shows the result with a link to the order.
 */
export function ThreeDsComplete({ orderId }: { orderId: string | null }) {
  const [outcome, setOutcome] = useState<Outcome>({ kind: "checking" });
  const framed = window.parent !== window;

  useEffect(() => {
    let cancelled = false;
    const finish = (result: ThreeDsResult) => {
      if (cancelled) return;
      setOutcome({ kind: "done", result });
      if (window.parent !== window) window.parent.postMessage(result, window.location.origin);
    };
    if (!orderId) {
      finish({
        type: THREE_DS_MESSAGE,
        status: "failure",
        error_message: "The bank sent no order to check.",
      });
      return;
    }
    call(checkoutEndpoints.confirm, { params: { orderId } })
      .then((response) => finish(resultOf(response)))
      .catch((error: unknown) =>
        finish({ type: THREE_DS_MESSAGE, status: "failure", error_message: errorMessage(error) }),
      );
    return () => {
      cancelled = true;
    };
  }, [orderId]);

  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center">
      {outcome.kind === "checking" ? (
        <>
          <Spinner size="lg" label={null} />
          <h1 className="text-lg font-semibold" role="status">
            Checking your payment…
          </h1>
        </>
      ) : outcome.result.status === "success" ? (
        <>
          <h1 className="text-lg font-semibold" role="status">
            Payment confirmed.
          </h1>
          {framed ? null : (
            <Button asChild>
              <Link to="/checkout/success" search={{ order_id: orderId ?? "" }}>
                See your order
              </Link>
            </Button>
          )}
        </>
      ) : (
        <>
          <h1 className="text-lg font-semibold">The payment was not confirmed.</h1>
          <p role="alert" className="max-w-sm text-sm text-danger">
            {outcome.result.error_message}
          </p>
          {framed ? null : (
            <Button asChild variant="outline">
              <Link to="/subscribe">Back to the plans</Link>
            </Button>
          )}
        </>
      )}
    </div>
  );
}
