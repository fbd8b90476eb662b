import {
  EXPECTED_RESPONSE_MAX,
  MESSAGE_RATING_LEVELS,
  MESSAGE_RATING_THANKS_MS,
  type Message,
  NEGATIVE_MESSAGE_RATING_MAX,
  ratingReasonsFor,
} from "@hearth/contract";
import { Star } from "lucide-react";
import { type FormEvent, useCallback, useEffect, useId, useState } from "react";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Dialog, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Label } from "../../ui/label.tsx";
import { rateMessage } from "./api.ts";

type Step = "level" | "details" | "thanks";

/**
 * Ratings given on this page, by message id: the chat keeps its rows in its own state, so a row
 * that re-mounts (the last reply becoming an older one) still shows its rating.
 */
const ratedHere = new Map<string, number>();

const levelLabel = (level: number) => MESSAGE_RATING_LEVELS.find((l) => l.value === level)?.label ?? "";

/** A toggle chip (one of a set: aria-pressed says which is on). */
function Chip({ on, onClick, children }: { on: boolean; onClick: () => void; children: string }) {
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={onClick}
      className={cn(
        "rounded-full border px-3 py-1.5 text-sm transition-colors",
        on
          ? "border-accent bg-accent text-accent-fg"
          : "border-border-strong bg-surface text-fg hover:bg-surface-2",
      )}
    >
      {children}
    </button>
  );
}

function RatingSteps({
  message,
  onRated,
  onClose,
}: {
  message: Message;
  onRated: (level: number) => void;
  onClose: () => void;
}) {
  const [step, setStep] = useState<Step>("level");
  const [level, setLevel] = useState<number | null>(null);
  const [reason, setReason] = useState<string | null>(null);
  const [expected, setExpected] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const expectedId = useId();
  const kind = message.image_url ? "image" : "text";
  const negative = level !== null && level <= NEGATIVE_MESSAGE_RATING_MAX;

  // The thank-you stays 7 s (chat-and-characters §4, §9), then the dialog closes by itself.
  useEffect(() => {
    if (step !== "thanks") return;
    const timer = setTimeout(onClose, MESSAGE_RATING_THANKS_MS);
    return () => clearTimeout(timer);
  }, [step, onClose]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (level === null) return;
    setPending(true);
    setError(null);
    try {
      await rateMessage(message.id, {
        rating: level,
        ...(reason ? { reason } : {}),
        ...(negative && expected.trim() ? { expected: expected.trim() } : {}),
      });
      onRated(level);
      setStep("thanks");
    } catch (cause) {
      // Rated meanwhile (another tab): the control fills in like after a rating here.
      if (isApiRequestError(cause) && cause.status === 409) onRated(level);
      setError(errorMessage(cause));
    } finally {
      setPending(false);
    }
  };

  if (step === "thanks") {
    return (
      <div className="flex flex-col gap-4">
        <p role="status" className="text-base" data-rating-thanks>
          Thank you for your feedback!
        </p>
        <DialogFooter className="mt-0">
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </DialogFooter>
      </div>
    );
  }

  if (step === "level") {
    return (
      <fieldset className="flex flex-col gap-3">
        <legend className="sr-only">How was this response?</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {MESSAGE_RATING_LEVELS.map((l) => (
            <Button
              key={l.value}
              variant={level === l.value ? "primary" : "outline"}
              aria-pressed={level === l.value}
              onClick={() => {
                setLevel(l.value);
                setReason(null);
                setStep("details");
              }}
            >
              {l.label}
            </Button>
          ))}
        </div>
      </fieldset>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <p className="text-sm">
        You chose <strong>{levelLabel(level ?? 0)}</strong>.{" "}
        <Button variant="link" size="sm" className="h-auto px-0" onClick={() => setStep("level")}>
          Change
        </Button>
      </p>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium">
          {negative ? "What went wrong?" : "What did you like?"}{" "}
          <span className="text-muted">(optional)</span>
        </legend>
        <div className="flex flex-wrap gap-2">
          {ratingReasonsFor(kind, level ?? 0).map((r) => (
            <Chip key={r} on={reason === r} onClick={() => setReason(reason === r ? null : r)}>
              {r}
            </Chip>
          ))}
        </div>
      </fieldset>
      {negative ? (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={expectedId}>What response did you expect?</Label>
          <textarea
            id={expectedId}
            value={expected}
            maxLength={EXPECTED_RESPONSE_MAX}
            rows={3}
            onChange={(event) => setExpected(event.target.value)}
            className="w-full resize-y rounded-lg border border-border-strong bg-bg px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-ring"
          />
        </div>
      ) : null}
      {error ? <Banner tone="danger">{error}</Banner> : null}
      <DialogFooter className="mt-0">
        <Button type="submit" loading={pending}>
          Submit rating
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * Rate on a bot message's action row (chat-and-characters §4 "Message rating"): Terrible, Bad,
 * Great or Fantastic, a reason chip, for a bad one what was expected, then a thank-you for 7 s.
 * Once rated the star is filled and the control stays off (the server takes one rating).
 */
export function MessageRating({ message, className }: { message: Message; className?: string }) {
  const [rated, setRatedState] = useState<number | null>(message.rating ?? ratedHere.get(message.id) ?? null);
  const setRated = useCallback(
    (level: number) => {
      ratedHere.set(message.id, level);
      setRatedState(level);
    },
    [message.id],
  );
  const [open, setOpen] = useState(false);
  // Stable, so the thank-you's timer is not restarted when the chat re-renders the row.
  const close = useCallback(() => setOpen(false), []);
  useEffect(() => {
    if (message.rating !== null) setRatedState(message.rating);
  }, [message.rating]);
  const label = rated ? `Rated ${levelLabel(rated)}` : "Rate";
  return (
    <>
      <button
        type="button"
        className={className}
        aria-label={label}
        title={label}
        aria-disabled={rated !== null || undefined}
        data-message-rating={rated ?? ""}
        onClick={rated !== null ? undefined : () => setOpen(true)}
      >
        <Star aria-hidden className={rated !== null ? "fill-current text-accent-text" : undefined} />
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        {open ? (
          <DialogContent title="Rate this response" description="Your rating helps improve the replies.">
            <RatingSteps message={message} onRated={setRated} onClose={close} />
          </DialogContent>
        ) : null}
      </Dialog>
    </>
  );
}
