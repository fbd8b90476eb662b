import { Gift, PartyPopper } from "lucide-react";
import { useEffect, useRef } from "react";
import { buttonClass } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { ConfettiBurst } from "./confetti.tsx";
import { claimHref, type GiftCard, money } from "./gift-cards.ts";

interface GiftCardProps {
  card: GiftCard;
  revealed: boolean;
  /** Bumped on the click that revealed it: the confetti's cue. */
  confetti: number;
  onReveal: () => void;
}

/**
 * A tier's gift (§2.2, §4 Sale gift card): locked and greyed until one click opens it for good,
 * showing the struck regular price, the sale price, the percent off, Claim Offer Now and the
 * yearly price. Focus moves to what was revealed, so keyboard users are not left on nothing.
 */
export function SaleGiftCard({ card, revealed, confetti, onReveal }: GiftCardProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = `gift-${card.role}`;
  useEffect(() => {
    if (confetti) heading.current?.focus();
  }, [confetti]);
  const { monthly, annual } = card;
  const perPeriod = monthly.period === "annual" ? "first year" : "first month";

  return (
    <div className="relative">
      {revealed ? (
        <section
          aria-labelledby={headingId}
          className="flex h-full animate-pop-in flex-col motion-reduce:animate-none gap-4 rounded-2xl border-2 border-accent bg-surface p-5 text-center shadow-card sm:p-6"
        >
          <div className="flex items-center justify-between gap-2 text-left">
            <h3
              id={headingId}
              ref={heading}
              tabIndex={-1}
              className="text-left text-lg font-semibold outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {card.title}
            </h3>
            <span className="rounded-full bg-accent px-2.5 py-1 text-sm font-bold text-accent-fg">
              {monthly.percent_off}% off
            </span>
          </div>
          <div className="flex flex-col items-center gap-1 py-2">
            <p className="text-muted">
              <span className="sr-only">Regular price </span>
              <s>{money(monthly.regular_price, monthly.currency)}</s>
            </p>
            <p className="text-4xl font-bold tracking-tight sm:text-5xl">
              <span className="sr-only">Sale price </span>
              {money(monthly.price, monthly.currency)}
            </p>
            <p className="text-sm text-muted">for your {perPeriod}</p>
          </div>
          <a href={claimHref(monthly)} className={buttonClass("primary", "lg", "w-full")}>
            Claim Offer Now
          </a>
          {annual ? (
            <div className="flex flex-col gap-1.5">
              <a href={claimHref(annual)} className={buttonClass("outline", "md", "w-full")}>
                Or {money(annual.price, annual.currency)} for the first year
                <span className="sr-only"> of {card.title}</span>
              </a>
              <p className="text-xs text-muted">
                Paying yearly: {annual.percent_off}% off twelve monthly payments
              </p>
            </div>
          ) : null}
        </section>
      ) : (
        <button
          type="button"
          onClick={onReveal}
          className={cn(
            "group flex h-full min-h-64 w-full cursor-pointer flex-col items-center justify-center gap-3 rounded-2xl border-2 border-dashed border-border-strong bg-surface-2 p-6 text-center transition",
            "hover:border-accent hover:bg-surface focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
          )}
        >
          <span className="flex size-16 items-center justify-center rounded-full bg-surface text-muted grayscale transition group-hover:text-accent-text group-hover:grayscale-0">
            <Gift aria-hidden className="size-8" />
          </span>
          <span className="text-lg font-semibold">{card.title}</span>
          <span className="inline-flex items-center gap-1.5 text-sm text-muted">
            <PartyPopper aria-hidden className="size-4" />
            Open your gift
          </span>
        </button>
      )}
      <ConfettiBurst fire={confetti} />
    </div>
  );
}
