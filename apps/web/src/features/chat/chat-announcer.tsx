import type { Announcement, TypingState } from "./chat-state.ts";

/** The live region's words: "Name: reply", or "Alternative 2 of 3. reply". */
function spoken(announcement: Announcement | null, name: string): string {
  if (!announcement) return "";
  const text = announcement.text.slice(0, 500);
  const alternative = announcement.alternative;
  return alternative
    ? `Alternative ${alternative.index + 1} of ${alternative.count}. ${text}`
    : `${name}: ${text}`;
}

/** What a screen reader hears of the chat: who is typing, and each finished reply. */
export function ChatAnnouncer({
  typing,
  announcement,
  characterName,
}: {
  typing: TypingState;
  announcement: Announcement | null;
  characterName: string;
}) {
  return (
    <>
      <p className="sr-only" role="status">
        {typing === "bot"
          ? `${characterName} is typing…`
          : typing === "autopilot"
            ? "Writing a suggestion…"
            : ""}
      </p>
      {/* Speaks once per finished reply or alternative switched to, never per streamed word. */}
      <p className="sr-only" aria-live="polite" data-chat-announcer>
        {spoken(announcement, characterName)}
      </p>
    </>
  );
}
