import type { CheckoutCalculation, Plan } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { Lock } from "lucide-react";
import { Button } from "../../ui/button.tsx";
import { formatPrice } from "../subscribe/frequency.ts";
import { CouponBox, OrderSummary, type SummaryFigures } from "./order-summary.tsx";
import type { MethodId } from "./rules.ts";

/** The plan's own price, shown until the address is complete enough to calculate. */
export function planFigures(plan: Plan): SummaryFigures {
  const item = {
    name: `${plan.title} (${plan.period === "annual" ? "Yearly" : "Monthly"})`,
    amount: plan.price,
  };
  return {
    line_items: [item],
    subtotal: plan.price,
    tax: null,
    discounts: [],
    total: plan.price,
    currency: plan.currency,
  };
}

/**
 * The right-hand column (below the form on phones): the order summary with the coupon box, the
 * terms, the submit button and, under them, what went wrong (§8: in red under the summary).
 */
export function SummaryPanel(props: {
  plan: Plan;
  figures: CheckoutCalculation | undefined;
  /** The figures answer the current address (else the plan's price is shown). */
  priced: boolean;
  period: string;
  updating: boolean;
  showCouponBox: boolean;
  /** The coupon or offer in use, for the note shown before the address lets it be checked. */
  code: string | null;
  onApplyCoupon: (code: string) => void;
  onRemoveCoupon: () => void;
  terms: boolean;
  onTerms: (agreed: boolean) => void;
  method: MethodId;
  placing: boolean;
  /** Why the button is disabled, for the hint under it. */
  blocker: string | null;
  disabled: boolean;
  errors: string[];
}) {
  const figures = props.priced && props.figures ? props.figures : planFigures(props.plan);
  const label =
    props.method === "card" ? `Pay ${formatPrice(figures.total, figures.currency)}` : "Place order";
  return (
    <div className="flex flex-col gap-4 lg:sticky lg:top-20">
      <section
        aria-labelledby="checkout-summary-heading"
        className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-5 shadow-card sm:p-6"
      >
        <h2 id="checkout-summary-heading" className="text-lg font-semibold">
          Order summary
        </h2>
        <OrderSummary
          figures={figures}
          period={props.period}
          updating={props.updating}
          onRemoveCoupon={props.onRemoveCoupon}
        />
        {!props.priced && props.code ? (
          <p className="text-sm text-muted">
            The code <span className="font-medium text-fg">{props.code}</span> is applied once your address is
            complete.
          </p>
        ) : null}
        {props.showCouponBox ? <CouponBox onApply={props.onApplyCoupon} /> : null}

        <div className="flex items-start gap-3 text-sm">
          <input
            id="checkout-terms"
            type="checkbox"
            className="mt-0.5 size-4 shrink-0 accent-(--brand-accent)"
            checked={props.terms}
            onChange={(event) => props.onTerms(event.target.checked)}
          />
          <label htmlFor="checkout-terms">
            I agree to the{" "}
            <Link
              to="/terms"
              target="_blank"
              rel="noopener"
              className="font-medium text-accent-text underline"
            >
              Terms of Service
            </Link>
            .
          </label>
        </div>

        <div className="flex flex-col gap-2">
          <Button
            type="submit"
            form="checkout-form"
            size="lg"
            className="w-full"
            loading={props.placing}
            disabled={props.disabled}
            aria-describedby={props.disabled && props.blocker ? "checkout-submit-hint" : undefined}
          >
            {props.method === "card" ? <Lock aria-hidden /> : null}
            {label}
          </Button>
          {props.disabled && props.blocker ? (
            <p id="checkout-submit-hint" className="text-center text-sm text-muted">
              {props.blocker}
            </p>
          ) : null}
        </div>

        {props.errors.length > 0 ? (
          <div role="alert" className="flex flex-col gap-1 text-sm font-medium text-danger">
            {props.errors.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </div>
        ) : null}
      </section>
    </div>
  );
}
