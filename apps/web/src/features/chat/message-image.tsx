import type { Message } from "@hearth/contract";
import { cn } from "../../ui/cn.ts";
import { Spinner } from "../../ui/spinner.tsx";

/**
 * A picture on a bot message (Image button, §3 image_url): its prompt is its alt text, and the
 * box keeps the picture's shape while it loads so the list does not jump.
 */
export function MessageImage({
  message,
  busy = false,
}: {
  message: Pick<Message, "image_url" | "image_prompt">;
  /** A new picture is being made for this message: the old one stays, dimmed, until it comes. */
  busy?: boolean;
}) {
  if (!message.image_url) return null;
  return (
    <div className="relative">
      <img
        src={message.image_url}
        alt={message.image_prompt ? `Image: ${message.image_prompt}` : "Image"}
        loading="lazy"
        data-message-image
        className={cn(
          "block aspect-[2/3] w-64 max-w-full rounded-xl bg-surface-2 object-cover sm:w-72",
          busy && "opacity-40",
        )}
      />
      {busy ? (
        <div className="absolute inset-0 flex items-center justify-center">
          <Spinner label="Making a new image…" />
        </div>
      ) : null}
    </div>
  );
}
