import type { Message } from "@hearth/contract";

/**
 * A picture on a bot message (Image button, §3 image_url): its prompt is its alt text, and the
 * box keeps the picture's shape while it loads so the list does not jump.
 */
export function MessageImage({ message }: { message: Pick<Message, "image_url" | "image_prompt"> }) {
  if (!message.image_url) return null;
  return (
    <img
      src={message.image_url}
      alt={message.image_prompt ? `Image: ${message.image_prompt}` : "Image"}
      loading="lazy"
      data-message-image
      className="block aspect-[2/3] w-64 max-w-full rounded-xl bg-surface-2 object-cover sm:w-72"
    />
  );
}
