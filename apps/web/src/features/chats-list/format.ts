import type { Conversation } from "@hearth/contract";

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 31_536_000],
  ["month", 2_592_000],
  ["week", 604_800],
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** "5 minutes ago", "yesterday", "just now". */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (Number.isNaN(seconds)) return "";
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

/** When the conversation last moved: its last message, else its last change. */
export function lastActivity(conversation: Conversation): string {
  return conversation.last_message?.createdAt ?? conversation.updated_at;
}

/** The line under the name: the title the user gave it, else the last message. */
export function preview(conversation: Conversation): string {
  if (conversation.label) return conversation.label;
  const last = conversation.last_message;
  if (!last) return "No messages yet";
  // Markdown emphasis markers read as noise in a one-line preview.
  const text = last.content
    .replace(/[*_`#>]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return last.role === "user" ? `You: ${text}` : text;
}

export const chatPath = (conversation: Conversation) =>
  `/chat/${encodeURIComponent(conversation.character_id)}/${encodeURIComponent(conversation.id)}`;
