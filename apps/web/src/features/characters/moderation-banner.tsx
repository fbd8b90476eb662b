import type { Character } from "@hearth/contract";
import { Banner } from "../../ui/banner.tsx";

/**
 * The editor's review banner (chat-and-characters §4): pending bots (and fixed ones waiting for a
 * second look, rereview_required) are in the review queue and can't be edited; fix_required
 * bots are 'Rejected', or 'Reported' when users reported them.
 */
export function ModerationBanner({ character }: { character: Character }) {
  const { moderation_status, reason_for_moderation, action_taken_description } = character.moderationReport;
  if (moderation_status === "pending") {
    return (
      <Banner tone="info" title="This chatbot is in the review queue">
        Moderators are looking at it. You can edit it again once the review is done.
      </Banner>
    );
  }
  if (moderation_status === "rereview_required") {
    return (
      <Banner tone="info" title="This chatbot is in the review queue">
        Your fix was sent back to the moderators. You can edit it again once they have looked at it.
      </Banner>
    );
  }
  if (moderation_status !== "fix_required") return null;
  const reported = character.reportsType.includes("User");
  return (
    <Banner tone="danger" title={reported ? "Reported" : "Rejected"}>
      <p>
        {reported
          ? "People reported this chatbot and a moderator asks for changes."
          : "A moderator asks for changes before this chatbot can be shown to others."}{" "}
        Fix the points below and save: it goes back to the review queue.
      </p>
      {reason_for_moderation.length ? (
        <ul className="mt-2 list-disc pl-5">
          {reason_for_moderation.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      ) : null}
      {action_taken_description ? <p className="mt-2 text-muted">{action_taken_description}</p> : null}
    </Banner>
  );
}
