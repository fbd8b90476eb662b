import type { Character } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Banner } from "../../ui/banner.tsx";
import { characterEditQuery } from "./api.ts";
import { editHref } from "./links.ts";

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

/**
 * Under a sent-back bot's card on My Chatbots: why it was sent back (the reasons and the
 * moderator's description, read from the bot's edit view, since cards carry only the status).
 */
export function FixRequiredNote({ characterId }: { characterId: string }) {
  const character = useQuery(characterEditQuery(characterId));
  const report = character.data?.moderationReport;
  if (report?.moderation_status !== "fix_required") return null;
  const reported = character.data?.reportsType.includes("User");
  return (
    <div className="mt-2 flex flex-col gap-1 rounded-lg border border-danger/40 bg-danger-soft px-3 py-2 text-xs">
      <p className="font-medium text-fg">{reported ? "Reported" : "Rejected"}</p>
      {report.reason_for_moderation.length ? (
        <ul className="list-disc pl-4 text-fg/90">
          {report.reason_for_moderation.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      ) : null}
      {report.action_taken_description ? (
        <p className="text-fg/90">{report.action_taken_description}</p>
      ) : null}
      <Link to={editHref(characterId)} className="font-medium text-fg underline underline-offset-2">
        Fix it in the editor
      </Link>
    </div>
  );
}
