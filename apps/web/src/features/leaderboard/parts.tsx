import { LEADERBOARD_WEIGHTS, LEADERBOARD_WINNERS, type LeaderboardHit } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { ArrowDown, ArrowUp, ChevronDown, Leaf, Minus } from "lucide-react";
import { useId, useState } from "react";
import { Avatar } from "../../ui/avatar.tsx";
import { cn } from "../../ui/cn.ts";
import { scoreLabel } from "./api.ts";

/** Two leaves for the top 3, one for the top 10 (§2.2). */
export function LeafBadges({ rank }: { rank: number }) {
  const leaves = rank <= 3 ? 2 : rank <= 10 ? 1 : 0;
  if (leaves === 0) return null;
  return (
    <span
      className="inline-flex shrink-0 items-center text-success"
      role="img"
      aria-label={rank <= 3 ? "Top 3" : "Top 10"}
      data-leaves={leaves}
    >
      {Array.from({ length: leaves }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical icons, only their count matters
        <Leaf key={i} aria-hidden className="size-4 fill-current" />
      ))}
    </span>
  );
}

/** Month-on-month movement: up green, down red, unchanged neutral; "New" when not ranked before. */
export function Movement({ movement }: { movement: number | null }) {
  if (movement === null) {
    return (
      <span className="text-xs font-medium text-info" data-movement="new">
        New
      </span>
    );
  }
  if (movement === 0) {
    return (
      <span className="inline-flex items-center gap-0.5 text-muted" data-movement="neutral">
        <Minus aria-hidden className="size-4" />
        <span className="sr-only">No change</span>
      </span>
    );
  }
  const up = movement > 0;
  const Icon = up ? ArrowUp : ArrowDown;
  return (
    <span
      className={cn(
        "inline-flex items-center gap-0.5 font-medium tabular-nums",
        up ? "text-success" : "text-danger",
      )}
      data-movement={up ? "up" : "down"}
    >
      <Icon aria-hidden className="size-4" />
      <span className="sr-only">{up ? "Up" : "Down"}</span>
      {Math.abs(movement)}
    </span>
  );
}

export function CreatorName({ hit }: { hit: LeaderboardHit }) {
  if (!hit.creator_username) return <span className="text-muted">Unnamed creator</span>;
  return (
    <Link
      to={`/creator/${encodeURIComponent(hit.creator_username)}`}
      className="truncate rounded font-medium hover:underline"
    >
      @{hit.creator_username}
    </Link>
  );
}

const podiumStyle: Record<number, { height: string; order: string; tone: string }> = {
  // Phones list 1st, 2nd, 3rd from the top; wider screens stand 2nd, 1st, 3rd side by side.
  1: { height: "sm:h-40", order: "order-1 sm:order-2", tone: "bg-warning-soft border-warning" },
  2: { height: "sm:h-32", order: "order-2 sm:order-1", tone: "bg-surface-2 border-border-strong" },
  3: { height: "sm:h-24", order: "order-3 sm:order-3", tone: "bg-accent-soft border-accent" },
};

/** The top three (§2.2): stacked in rank order on phones, a podium with the winner in the middle on wider screens. */
export function Podium({ hits }: { hits: LeaderboardHit[] }) {
  const top = hits.filter((h) => h.rank <= 3);
  if (top.length === 0) return null;
  return (
    <ol
      aria-label="Top three"
      className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-center sm:gap-4"
    >
      {top.map((hit) => {
        const style = podiumStyle[hit.rank] ?? podiumStyle[3];
        return (
          <li
            key={hit.id}
            data-podium-rank={hit.rank}
            className={cn("flex min-w-0 flex-col items-center gap-2 sm:w-48", style?.order)}
          >
            <div className="flex w-full min-w-0 items-center gap-3 sm:flex-col sm:gap-2">
              <Avatar name={hit.creator_username ?? "?"} src={hit.avatar_url} size="md" />
              <div className="flex min-w-0 flex-1 flex-col sm:items-center">
                <span className="flex max-w-full min-w-0 items-center gap-1.5">
                  <CreatorName hit={hit} />
                  <LeafBadges rank={hit.rank} />
                </span>
                <span className="text-sm text-muted tabular-nums">{scoreLabel(hit.score)} points</span>
              </div>
            </div>
            <div
              className={cn(
                "flex h-12 w-full items-center justify-center rounded-xl border text-2xl font-bold sm:rounded-b-none",
                style?.height,
                style?.tone,
              )}
            >
              <span className="sr-only">Rank </span>
              {hit.rank}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** The 'How it Works' accordion: the prize rules of §2.2 and how the score is counted. */
export function HowItWorks() {
  const [open, setOpen] = useState(false);
  const panel = useId();
  const w = LEADERBOARD_WEIGHTS;
  return (
    <section className="rounded-xl border border-border bg-surface">
      <h2>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panel}
          onClick={() => setOpen(!open)}
          className="flex w-full items-center justify-between gap-3 rounded-xl px-4 py-3 text-left font-semibold hover:bg-surface-2"
        >
          How it Works
          <ChevronDown aria-hidden className={cn("size-5 transition-transform", open && "rotate-180")} />
        </button>
      </h2>
      <div id={panel} hidden={!open} className="flex flex-col gap-3 px-4 pb-4 text-sm leading-relaxed">
        <p>
          Each month has two categories: the top {LEADERBOARD_WINNERS} creators of new characters (New Bots:
          chatbots created that month) and the top {LEADERBOARD_WINNERS} creators of all characters (All
          Bots).
        </p>
        <ul className="list-disc pl-5">
          <li>The top 3 creators in each category win a free month of the highest tier (I'm All In).</li>
          <li>The remaining creators of the top 10 win a free month of the middle tier (True Supporter).</li>
          <li>One user cannot win prizes in both categories in the same month.</li>
        </ul>
        <p>
          <strong>The score</strong> of a public chatbot for a month: every message sent to it that month
          counts {w.message}; every rating given or changed that month counts {w.rating} × its score (love 1,
          like 0.5, dislike −1); every new favourite that month counts {w.favorite}. A creator's score is the
          sum over their chatbots in the category. Rankings are recounted every few minutes during the month
          and settle once it ends. M/M Rank shows the places gained or lost since the previous month. Hearth's
          own demo chatbots are not ranked.
        </p>
      </div>
    </section>
  );
}
