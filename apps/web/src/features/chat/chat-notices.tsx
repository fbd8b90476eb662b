import type { Me } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { Ban, Clock, Lock, RotateCcw, X } from "lucide-react";
import { useEffect, useState } from "react";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { UnblockFromChat } from "../blocking/unblock-from-chat.tsx";
import type { ChatNotice } from "./chat-state.ts";

/** The retry countdown of chat-and-characters §4: from 5 s, down by 0.5 s every 500 ms. */
export const RETRY_SECONDS = 5;
const RETRY_STEP_S = 0.5;
const RETRY_TICK_MS = 500;

export function useRetryCountdown(key: number): number {
  const [left, setLeft] = useState(RETRY_SECONDS);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new key restarts the countdown
  useEffect(() => {
    setLeft(RETRY_SECONDS);
    let ticks = 0;
    const timer = setInterval(() => {
      ticks++;
      const next = Math.max(0, RETRY_SECONDS - ticks * RETRY_STEP_S);
      setLeft(next);
      if (next === 0) clearInterval(timer);
    }, RETRY_TICK_MS);
    return () => clearInterval(timer);
  }, [key]);
  return left;
}

function DismissButton({ onClick, label }: { onClick: () => void; label: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className="rounded-md p-1.5 text-muted transition hover:bg-surface-2 hover:text-fg [&_svg]:size-4"
    >
      <X aria-hidden />
    </button>
  );
}

const lineTone = {
  info: "border-border bg-surface text-muted",
  warning: "border-warning/40 bg-warning-soft",
  danger: "border-danger/40 bg-danger-soft",
} as const;

/** One dismissible line above the input: a notice (status) or a problem (alert). */
function NoticeLine({
  tone,
  text,
  dismissLabel,
  onDismiss,
}: {
  tone: keyof typeof lineTone;
  text: string;
  dismissLabel: string;
  onDismiss: () => void;
}) {
  return (
    <div
      role={tone === "info" ? "status" : "alert"}
      className={`flex items-center gap-3 rounded-xl border px-3.5 py-2 text-sm ${lineTone[tone]}`}
    >
      <p className="min-w-0 flex-1">{text}</p>
      <DismissButton onClick={onDismiss} label={dismissLabel} />
    </div>
  );
}

/** The default error of §8: what failed, a countdown with a progress bar, then Resubmit. */
export function GenerationErrorBanner({
  detail,
  problemId,
  onResubmit,
  onDismiss,
}: {
  detail: string;
  problemId: number;
  onResubmit: () => void;
  onDismiss: () => void;
}) {
  const left = useRetryCountdown(problemId);
  const ready = left === 0;
  return (
    <div
      role="alert"
      className="flex flex-col gap-2 rounded-xl border border-danger/40 bg-danger-soft px-3.5 py-3 text-sm"
    >
      <div className="flex items-start gap-3">
        <p className="min-w-0 flex-1 pt-0.5">There was an error processing the last request. ({detail})</p>
        <DismissButton onClick={onDismiss} label="Dismiss error" />
      </div>
      <div className="flex items-center gap-3">
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <p className="text-xs text-muted" aria-live="off">
            {ready ? "You can try again now." : `You can try again in ${left} seconds`}
          </p>
          <div
            role="progressbar"
            aria-label="Time until you can try again"
            aria-valuemin={0}
            aria-valuemax={RETRY_SECONDS}
            aria-valuenow={RETRY_SECONDS - left}
            className="h-1 overflow-hidden rounded-full bg-danger/20"
          >
            <div
              className="h-full rounded-full bg-danger transition-[width] duration-500 ease-linear"
              style={{ width: `${((RETRY_SECONDS - left) / RETRY_SECONDS) * 100}%` }}
            />
          </div>
        </div>
        <Button size="sm" variant="outline" disabled={!ready} onClick={onResubmit}>
          <RotateCcw aria-hidden />
          Resubmit
        </Button>
      </div>
    </div>
  );
}

type Tier = "guest" | "free" | "subscriber";

export function tierOf(me: Me | null): Tier {
  if (!me || me.is_guest) return "guest";
  return me.role !== "free" && me.status === "active" ? "subscriber" : "free";
}

const limitCopy: Record<Tier, { title: string; text: string }> = {
  guest: {
    title: "You've used up the guest messages",
    text: "Sign up free to keep this story going. Members get more messages every day, and their chats are saved.",
  },
  free: {
    title: "You've reached today's message limit",
    text: "Free accounts can send a set number of messages a day. Come back tomorrow to carry on where you left off.",
  },
  subscriber: {
    title: "You've reached your plan's limit for today",
    text: "Your plan's messages for today are used up. They refill tomorrow.",
  },
};

/**
 * Limit reached (§8): a title per tier, and the server's explanation (it knows when the limit
 * refills); guests are offered an account, free members the subscribe page.
 */
export function LimitBanner({ me, detail }: { me: Me | null; detail: string }) {
  const tier = tierOf(me);
  const copy = limitCopy[tier];
  return (
    <Banner
      tone="warning"
      title={copy.title}
      action={
        tier === "guest" ? (
          <Button asChild size="sm">
            <Link to="/sign-up">Sign Up Free</Link>
          </Button>
        ) : tier === "free" ? (
          // Every paid tier has the same higher daily limit, so the lowest one is enough.
          <Button asChild size="sm">
            <Link to="/subscribe" search={{ plan: "minimal" }}>
              Upgrade
            </Link>
          </Button>
        ) : null
      }
    >
      {detail || copy.text}
    </Banner>
  );
}

const accessCopy = {
  invalidAccess: {
    icon: Lock,
    title: "This chat isn't available",
    text: "You are not allowed to chat with this character. It's either private or deleted.",
  },
  blockedBotCreator: {
    icon: Ban,
    title: "You blocked this creator",
    text: "You have blocked the creator of this character. Please unblock creator to use this character.",
  },
} as const;

/**
 * invalidAccess and blockedBotCreator (§8): shown in place of the conversation, not dismissible.
 * A blocked creator's bot offers Unblock Creator, which unblocks and then `onUnblocked` reloads the chat.
 */
export function AccessState({
  code,
  unblock,
}: {
  code: keyof typeof accessCopy;
  unblock?: { characterId: string; onUnblocked: () => void };
}) {
  const copy = accessCopy[code];
  return (
    <div
      className="flex flex-1 flex-col items-center justify-center gap-4 px-6 py-12 text-center"
      role="alert"
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-danger-soft text-danger">
        <copy.icon aria-hidden className="size-7" />
      </span>
      <div className="flex max-w-md flex-col gap-2">
        {/* The screen's heading: this state stands in for the whole chat. */}
        <h1 className="text-xl font-semibold tracking-tight">{copy.title}</h1>
        <p className="text-muted">{copy.text}</p>
      </div>
      <div className="flex flex-wrap justify-center gap-2">
        {code === "blockedBotCreator" && unblock ? (
          <UnblockFromChat characterId={unblock.characterId} onUnblocked={unblock.onUnblocked} />
        ) : null}
        <Button asChild variant={code === "blockedBotCreator" && unblock ? "outline" : "primary"}>
          <Link to="/">Find other characters</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/chats">Your chats</Link>
        </Button>
      </div>
    </div>
  );
}

/**
 * A reply queued for the model (not the waiting room, which decides who may chat): its place
 * among replies waiting, and the time left once it is a minute or more.
 */
export function ReplyLineBanner({ position, timeLeftS }: { position: number; timeLeftS: number }) {
  return (
    <div
      role="status"
      data-reply-line
      className="flex items-center gap-3 rounded-xl border border-info/40 bg-info-soft px-3.5 py-2.5 text-sm"
    >
      <Clock aria-hidden className="size-4 shrink-0 text-info" />
      <p className="flex flex-wrap gap-x-4">
        <span>
          Your reply's place in line: <strong className="font-semibold tabular-nums">{position}</strong>
        </span>
        {timeLeftS >= 60 ? (
          <span>
            Starts in about{" "}
            <strong className="font-semibold tabular-nums">{Math.round(timeLeftS / 60)} min</strong>
          </span>
        ) : null}
      </p>
    </div>
  );
}

/** A small failure of an action that isn't a generation (switching alternatives, loading more). */
export function ActionErrorBanner({ message, onDismiss }: { message: string; onDismiss: () => void }) {
  return <NoticeLine tone="danger" text={message} dismissLabel="Dismiss error" onDismiss={onDismiss} />;
}

const demoNoticeKey = "hearth.chat.demoNoticeShown";

/** Whether the demo-model notice may still be shown in this browser session (once per session). */
export function claimDemoNotice(): boolean {
  try {
    if (sessionStorage.getItem(demoNoticeKey)) return false;
    sessionStorage.setItem(demoNoticeKey, "1");
  } catch {
    // No storage: show it each time rather than never.
  }
  return true;
}

export function DemoModelNotice({ onDismiss }: { onDismiss: () => void }) {
  return (
    <NoticeLine
      tone="info"
      text="You're chatting with Hearth's tiny demo model; replies are simple."
      dismissLabel="Dismiss notice"
      onDismiss={onDismiss}
    />
  );
}

/** Plain words for a model's window: "2,048 tokens (about 7,000 characters)". */
function windowWords(tokens: number): string {
  return `${tokens.toLocaleString("en-US")} tokens (about ${(Math.round((tokens * 3.5) / 500) * 500).toLocaleString("en-US")} characters)`;
}

const demoModelWords = (tokens: number) =>
  `This server runs Hearth's tiny demo model, which reads only ${windowWords(tokens)} at a time. An administrator can set up a real model under Admin → Models.`;

/**
 * Something worth knowing about the last reply: Continue added nothing, or the character's
 * definition was longer than the model reads. On the demo model it says so plainly.
 */
export function ReplyNotice({
  notice,
  characterName,
  model,
  onDismiss,
}: {
  notice: ChatNotice;
  characterName: string;
  model: { is_demo: boolean; context_tokens: number } | undefined;
  onDismiss: () => void;
}) {
  const text =
    notice.kind === "nothing-added"
      ? `${characterName} had nothing to add: the reply seems finished. Try Regenerate for a different one.`
      : model?.is_demo
        ? `Part of ${characterName}'s definition was left out to fit. ${demoModelWords(model.context_tokens)}`
        : `${characterName}'s definition is longer than this model reads${model ? ` (${windowWords(model.context_tokens)})` : ""}, so part of it was left out.`;
  return <NoticeLine tone="info" text={text} dismissLabel="Dismiss notice" onDismiss={onDismiss} />;
}

/** A message longer than the model reads: what the server said, and on the demo model why. */
export function TooLongBanner({
  detail,
  model,
  onDismiss,
}: {
  detail: string;
  model: { is_demo: boolean; context_tokens: number } | undefined;
  onDismiss: () => void;
}) {
  const text = model?.is_demo ? `${detail} ${demoModelWords(model.context_tokens)}` : detail;
  return <NoticeLine tone="warning" text={text} dismissLabel="Dismiss" onDismiss={onDismiss} />;
}
