import { useParams } from "@tanstack/react-router";
import { RotateCcw } from "lucide-react";
import { type ReactNode, useRef } from "react";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { AccessState } from "./chat-notices.tsx";
import { useViewportFill } from "./use-viewport-fill.ts";

/** Codes that mean "this character can't be chatted with" wherever they come from. */
function accessCode(error: unknown): "invalidAccess" | "blockedBotCreator" | null {
  if (!isApiRequestError(error)) return null;
  if (error.code === "blockedBotCreator") return "blockedBotCreator";
  if (error.code === "invalidAccess" || error.status === 403 || error.status === 404) return "invalidAccess";
  return null;
}

/** Full-height frame under the top bar; the message list scrolls inside it. */
export function ChatFrame({ children }: { children: ReactNode }) {
  const frame = useRef<HTMLDivElement>(null);
  useViewportFill(frame);
  return (
    <div ref={frame} className="flex min-h-0 flex-col">
      {children}
    </div>
  );
}

/** Load failures other than access: say what happened and offer a retry. */
export function ChatLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const code = accessCode(error);
  const { characterId } = useParams({ strict: false }) as { characterId?: string };
  if (code) {
    return (
      <AccessState code={code} unblock={characterId ? { characterId, onUnblocked: onRetry } : undefined} />
    );
  }
  return (
    <div className="mx-auto flex w-full max-w-[800px] flex-1 items-center px-4">
      <Banner
        tone="danger"
        title="This chat couldn't be opened"
        className="w-full"
        action={
          <Button size="sm" variant="outline" onClick={onRetry}>
            <RotateCcw aria-hidden />
            Try again
          </Button>
        }
      >
        {errorMessage(error)}
      </Banner>
    </div>
  );
}
