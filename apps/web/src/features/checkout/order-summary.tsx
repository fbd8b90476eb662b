import type { CheckoutCalculation } from "@hearth/contract";
import { TicketPercent, X } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { formatPrice } from "../subscribe/frequency.ts";

/** The calculation, or the plan's own price while the address is not complete enough to price. */
export type SummaryFigures = Pick<
  CheckoutCalculation,
  "line_items" | "subtotal" | "discounts" | "total" | "currency"
> & {
  /** Null until the address gives a tax. */
  tax: number | null;
};

function Line({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div
      className={strong ? "flex justify-between gap-4 text-base font-semibold" : "flex justify-between gap-4"}
    >
      <dt className={strong ? undefined : "text-muted"}>{label}</dt>
      <dd className="text-right tabular-nums">{value}</dd>
    </div>
  );
}

/** §2.2 order summary: line items, subtotal, tax, discounts (code, verdict, amount) and the total. */
export function OrderSummary({
  figures,
  period,
  updating,
  onRemoveCoupon,
}: {
  figures: SummaryFigures;
  period: string;
  /** A new calculation is on its way (the figures shown are the last ones). */
  updating: boolean;
  /** Takes a coupon off the order (an invalid one must go before paying). */
  onRemoveCoupon: (code: string) => void;
}) {
  const money = (amount: number) => formatPrice(amount, figures.currency);
  return (
    <div className="flex flex-col gap-3">
      <dl className="flex flex-col gap-2 text-sm">
        {figures.line_items.map((item) => (
          <div key={item.name} className="flex justify-between gap-4">
            <dt className="font-medium">{item.name}</dt>
            <dd className="text-right tabular-nums">{money(item.amount)}</dd>
          </div>
        ))}
      </dl>
      <hr className="border-border" />
      <dl className="flex flex-col gap-2 text-sm">
        <Line label="Subtotal" value={money(figures.subtotal)} />
        {figures.discounts.map((discount) => (
          <div key={discount.code} className="flex flex-col gap-0.5">
            <div className="flex items-center justify-between gap-4">
              <dt className="flex min-w-0 items-center gap-1.5 text-muted">
                <TicketPercent aria-hidden className="size-4 shrink-0" />
                <span className="truncate">{discount.code}</span>
                <button
                  type="button"
                  className="rounded p-0.5 text-muted hover:bg-surface-2 hover:text-fg"
                  aria-label={`Remove the code ${discount.code}`}
                  onClick={() => onRemoveCoupon(discount.code)}
                >
                  <X aria-hidden className="size-3.5" />
                </button>
              </dt>
              <dd className="text-right tabular-nums">
                {discount.valid ? `−${money(discount.total)}` : "—"}
              </dd>
            </div>
            {discount.valid ? null : (
              <p className="text-sm text-danger" role="alert">
                {discount.error || "Invalid coupon"}
              </p>
            )}
          </div>
        ))}
        <Line label="Tax" value={figures.tax === null ? "From your address" : money(figures.tax)} />
      </dl>
      <hr className="border-border" />
      <dl>
        <Line label="Total" value={money(figures.total)} strong />
      </dl>
      <p className="flex items-center gap-2 text-xs text-muted" aria-live="polite">
        {updating ? (
          <>
            <Spinner size="sm" label={null} /> Updating the price…
          </>
        ) : (
          `Renews every ${period} until you cancel. Cancel any time from Manage Subscription.`
        )}
      </p>
    </div>
  );
}

/** §2.2 coupon box (only when no coupon came in the link); the summary shows the code's verdict. */
export function CouponBox({ onApply }: { onApply: (code: string) => void }) {
  const [code, setCode] = useState("");
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return;
    onApply(code.trim());
    setCode("");
  };
  return (
    <form className="flex flex-col gap-1.5" onSubmit={apply}>
      <Label htmlFor="checkout-coupon">Coupon code</Label>
      <div className="flex gap-2">
        <Input
          id="checkout-coupon"
          value={code}
          maxLength={64}
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="characters"
          onChange={(event) => setCode(event.target.value)}
        />
        <Button type="submit" variant="outline" disabled={!code.trim()}>
          Apply
        </Button>
      </div>
    </form>
  );
}
