import { RotateCw } from "lucide-react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";

/** A list or page that failed to load: what failed, the server's reason, and a Retry button. */
export function LoadErrorBanner({
  title,
  error,
  onRetry,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
}) {
  return (
    <Banner
      tone="danger"
      title={title}
      action={
        <Button variant="outline" size="sm" onClick={onRetry}>
          <RotateCw aria-hidden />
          Retry
        </Button>
      }
    >
      {errorMessage(error)}
    </Banner>
  );
}
