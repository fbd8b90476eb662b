import { useEffect, useRef } from "react";
import { Dialog, DialogContent } from "../../ui/dialog.tsx";
import { type ThreeDsResult, threeDsResult } from "./three-ds.ts";

/**
 * The 3-D Secure dialog (§2.2, §4): the bank's check in an iframe. The page at the end of it
 * (/checkout/3ds-complete) posts the outcome to this window; closing the dialog gives up.
 */
export function ThreeDsDialog({
  url,
  onResult,
  onDismiss,
}: {
  /** The challenge address; the dialog is open while it is set. */
  url: string | null;
  onResult: (result: ThreeDsResult) => void;
  onDismiss: () => void;
}) {
  const handler = useRef(onResult);
  handler.current = onResult;

  useEffect(() => {
    if (!url) return;
    const listen = (event: MessageEvent) => {
      const result = threeDsResult(event, window.location.origin);
      if (result) handler.current(result);
    };
    window.addEventListener("message", listen);
    return () => window.removeEventListener("message", listen);
  }, [url]);

  return (
    <Dialog open={url !== null} onOpenChange={(open) => (open ? null : onDismiss())}>
      {url ? (
        <DialogContent
          title="Confirm the payment with your bank"
          description="Your bank asks you to confirm this payment. Follow the steps below."
          className="max-w-xl"
        >
          <iframe
            title="3-D Secure"
            src={url}
            className="h-[min(60dvh,36rem)] w-full rounded-lg border border-border bg-white"
          />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
