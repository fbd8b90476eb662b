import {
  CHARACTER_RATINGS,
  type CharacterCard,
  type CharacterRatingValue,
  type Conversation,
} from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { Heart, type LucideIcon, ThumbsDown, ThumbsUp } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useMe } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { chatKeys } from "../chat/api.ts";
import { rateCharacter, ratingSummaryQuery } from "./api.ts";

const icons: Record<CharacterRatingValue, LucideIcon> = { 1: ThumbsDown, 3: ThumbsUp, 5: Heart };

function RateForm({
  characterId,
  current,
  conversationLength,
}: {
  characterId: string;
  current: CharacterRatingValue | null;
  conversationLength: () => number;
}) {
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<CharacterRatingValue | null>(current);
  const [saved, setSaved] = useState<CharacterRatingValue | null>(current);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<"submitted" | "failed" | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (choice === null || choice === saved) return;
    setPending(true);
    setResult(null);
    try {
      await rateCharacter(queryClient, characterId, choice, conversationLength());
      setSaved(choice);
      setResult("submitted");
    } catch {
      setResult("failed");
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <fieldset>
        <legend className="sr-only">Your rating</legend>
        <div className="grid grid-cols-3 gap-2">
          {CHARACTER_RATINGS.map((r) => {
            const Icon = icons[r.value];
            const on = choice === r.value;
            return (
              <label
                key={r.value}
                className={cn(
                  "flex cursor-pointer flex-col items-center gap-1.5 rounded-xl border px-2 py-3 text-sm font-medium transition-colors",
                  "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring",
                  on ? "border-accent bg-accent-soft" : "border-border-strong hover:bg-surface-2",
                )}
              >
                <input
                  type="radio"
                  name="chatbot-rating"
                  value={r.value}
                  checked={on}
                  onChange={() => {
                    setChoice(r.value);
                    setResult(null);
                  }}
                  className="sr-only"
                />
                <Icon aria-hidden className={cn("size-6", on && "fill-current text-accent-text")} />
                {r.label}
              </label>
            );
          })}
        </div>
      </fieldset>
      {result === "submitted" ? <Banner tone="success">Rating Submitted</Banner> : null}
      {result === "failed" ? <Banner tone="danger">Failed to submit rating</Banner> : null}
      <DialogFooter className="mt-0">
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
        {/* Done is off while nothing is chosen or the choice is the rating already given (§4). */}
        <Button type="submit" loading={pending} disabled={choice === null || choice === saved}>
          Done
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * The chat header's like/rate (chat-and-characters §2, §4 "Chatbot rating dialog", §6): dislike,
 * like or love, for signed-in members on public bots (not their own). The button shows the
 * rating given; it is sent with the length of the chat it was given from.
 */
export function RateChatbot({ character }: { character: CharacterCard }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const { conversationId } = useParams({ strict: false }) as { conversationId?: string };
  const [open, setOpen] = useState(false);
  const eligible =
    Boolean(me && !me.is_guest) && character.visibility === "public" && me?.id !== character.creator_user_id;
  const summary = useQuery({ ...ratingSummaryQuery(character.id), enabled: eligible });
  if (!eligible || !summary.data?.can_rate) return null;
  const current = summary.data.rating;
  const given = CHARACTER_RATINGS.find((r) => r.value === current);
  const Icon = current ? icons[current] : ThumbsUp;
  const conversationLength = () =>
    (conversationId
      ? queryClient.getQueryData<Conversation>(chatKeys.detail(conversationId))?.message_count
      : undefined) ?? 0;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button
        variant="ghost"
        size="icon"
        aria-label={given ? `Rate Chatbot (you chose ${given.label})` : "Rate Chatbot"}
        title="Rate Chatbot"
        data-rate-chatbot={current ?? ""}
        onClick={() => setOpen(true)}
      >
        <Icon aria-hidden className={current ? "fill-current text-accent-text" : undefined} />
      </Button>
      {open ? (
        <DialogContent title="Rate Chatbot" description={`How do you like ${character.name}?`}>
          <RateForm characterId={character.id} current={current} conversationLength={conversationLength} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
