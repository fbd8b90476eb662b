import { MAX_TAGS, type TagSuggestion } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, X } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { characterKeys } from "../characters/api.ts";
import { decideTagSuggestion, ratingKeys, tagSuggestionsQuery } from "./api.ts";

function SuggestionItem({
  suggestion,
  blocked,
  busy,
  onDecide,
}: {
  suggestion: TagSuggestion;
  blocked: boolean;
  busy: boolean;
  onDecide: (status: "accepted" | "dismissed") => void;
}) {
  const who = suggestion.username ? `@${suggestion.username}` : "A member";
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-border p-3 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1.5">
        <p className="text-sm text-muted">{who} suggests</p>
        <ul aria-label={`Changes suggested by ${who}`} className="flex flex-wrap gap-1.5">
          {suggestion.tags_to_add.map((tag) => (
            <li key={`+${tag}`} className="rounded-full bg-success-soft px-2.5 py-0.5 text-sm">
              <span className="sr-only">Add </span>+ {tag}
            </li>
          ))}
          {suggestion.tags_to_remove.map((tag) => (
            <li key={`-${tag}`} className="rounded-full bg-danger-soft px-2.5 py-0.5 text-sm line-through">
              <span className="sr-only">Remove </span>− {tag}
            </li>
          ))}
        </ul>
        {suggestion.fits ? null : (
          <p className="text-xs text-danger">Accepting would leave more than {MAX_TAGS} tags.</p>
        )}
      </div>
      <div className="flex shrink-0 gap-2">
        <Button
          size="sm"
          disabled={busy || blocked || !suggestion.fits}
          onClick={() => onDecide("accepted")}
          aria-label={`Accept the suggestion of ${who}`}
        >
          <Check aria-hidden />
          Accept
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() => onDecide("dismissed")}
          aria-label={`Dismiss the suggestion of ${who}`}
        >
          <X aria-hidden />
          Dismiss
        </Button>
      </div>
    </li>
  );
}

/**
 * Members' pending tag suggestions in the chatbot editor (chat-and-characters §4 "Tag
 * suggestion"): the creator accepts one (its tags change at once, 12 at most) or dismisses it.
 * Shows nothing while there are none.
 */
export function TagSuggestionsPanel({
  characterId,
  blocked,
  onTagsChanged,
}: {
  characterId: string;
  /** The bot waits for review: it cannot change now (dismissing still works). */
  blocked: boolean;
  onTagsChanged: (tags: string[]) => void;
}) {
  const queryClient = useQueryClient();
  const list = useQuery(tagSuggestionsQuery(characterId));
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const decide = async (suggestion: TagSuggestion, status: "accepted" | "dismissed") => {
    setBusy(suggestion.id);
    setError(null);
    setDone(null);
    try {
      const answer = await decideTagSuggestion(suggestion.id, status);
      if (status === "accepted") {
        onTagsChanged(answer.tags);
        void queryClient.invalidateQueries({ queryKey: characterKeys.detail(characterId) });
      }
      setDone(status === "accepted" ? "Suggestion accepted: the tags are updated." : "Suggestion dismissed.");
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(null);
      void queryClient.invalidateQueries({ queryKey: ratingKeys.suggestions(characterId) });
    }
  };

  if (list.isError) {
    return <Banner tone="warning">Tag suggestions couldn't be loaded. {errorMessage(list.error)}</Banner>;
  }
  const suggestions = list.data?.suggestions ?? [];
  if (suggestions.length === 0 && !done) return null;
  return (
    <section
      aria-labelledby="tag-suggestions-heading"
      className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 sm:p-6"
    >
      <div className="flex flex-col gap-1">
        <h2 id="tag-suggestions-heading" className="text-base font-semibold">
          Tag suggestions{suggestions.length ? ` (${suggestions.length})` : ""}
        </h2>
        <p className="text-sm text-muted">Members suggested changes to this chatbot's tags.</p>
      </div>
      {error ? <Banner tone="danger">{error}</Banner> : null}
      <p role="status" className={done ? "text-sm text-success" : "sr-only"}>
        {done}
      </p>
      {suggestions.length ? (
        <ul className="flex flex-col gap-2">
          {suggestions.map((s) => (
            <SuggestionItem
              key={s.id}
              suggestion={s}
              blocked={blocked}
              busy={busy !== null}
              onDecide={(status) => void decide(s, status)}
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
