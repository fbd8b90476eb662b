import type { BillingPeriod, Subscription } from "@hearth/contract";
import { useState } from "react";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { perPeriod } from "../subscribe/frequency.ts";
import { dialogPeriods, formatDate, initialPeriod, planOptions } from "./rules.ts";

const periodLabel: Record<BillingPeriod, string> = { monthly: "Monthly", annual: "Annual" };

/**
 * Change Plan (§2.2): the plans the subscription may move to, for one frequency at a time (yearly
 * subscribers see annual plans only; others toggle), each with its price and what choosing it does.
 * The current plan is shown and cannot be chosen.
 */
export function ChangePlanDialog({
  sub,
  open,
  onOpenChange,
  pending,
  onChoose,
  onCloseAutoFocus,
}: {
  sub: Subscription;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  onChoose: (planId: string) => void;
  /** Where focus goes after the dialog closes, when not back to its button. */
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Mounted only while open, so each opening starts on the subscription's own frequency. */}
      {open ? (
        <ChangePlanContent
          sub={sub}
          pending={pending}
          onChoose={onChoose}
          onCloseAutoFocus={onCloseAutoFocus}
        />
      ) : null}
    </Dialog>
  );
}

function ChangePlanContent({
  sub,
  pending,
  onChoose,
  onCloseAutoFocus,
}: {
  sub: Subscription;
  pending: boolean;
  onChoose: (planId: string) => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const periods = dialogPeriods(sub);
  const [period, setPeriod] = useState<BillingPeriod>(initialPeriod(sub));
  const [chosen, setChosen] = useState<string | null>(null);
  const options = planOptions(sub, period);
  const choice = options.find((o) => o.plan_id === chosen && !o.current);

  return (
    <DialogContent
      onCloseAutoFocus={onCloseAutoFocus}
      title="Change Plan"
      description={
        periods.length === 1
          ? "You pay yearly, so you can change to another yearly plan."
          : "Choose the plan you want, monthly or annual."
      }
    >
      <form
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          if (choice) onChoose(choice.plan_id);
        }}
      >
        {periods.length > 1 ? (
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium">Billing</legend>
            <div className="inline-flex self-start rounded-lg bg-surface-2 p-1">
              {periods.map((p) => (
                <label
                  key={p}
                  className={cn(
                    "cursor-pointer rounded-md px-4 py-1.5 text-sm font-medium has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring",
                    p === period ? "bg-surface text-fg shadow-sm" : "text-muted hover:text-fg",
                  )}
                >
                  <input
                    type="radio"
                    name="plan-period"
                    value={p}
                    checked={p === period}
                    onChange={() => {
                      setPeriod(p);
                      setChosen(null);
                    }}
                    className="sr-only"
                  />
                  {periodLabel[p]}
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}

        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium">Plan</legend>
          {options.length === 0 ? (
            <p className="text-sm text-muted">No {periodLabel[period].toLowerCase()} plans are offered.</p>
          ) : (
            options.map((option) => (
              <label
                key={option.plan_id}
                className={cn(
                  "flex gap-3 rounded-lg border p-3 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring",
                  option.current ? "cursor-not-allowed bg-surface-2" : "cursor-pointer",
                  !option.current && option.plan_id === chosen
                    ? "border-accent bg-accent-soft"
                    : "border-border",
                )}
              >
                <input
                  type="radio"
                  name="plan"
                  value={option.plan_id}
                  disabled={option.current}
                  checked={option.plan_id === chosen}
                  onChange={() => setChosen(option.plan_id)}
                  className="mt-1 size-4 shrink-0"
                />
                <span className="flex min-w-0 flex-1 flex-col gap-1">
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{option.name}</span>
                    {option.current ? <Badge>Current plan</Badge> : null}
                    {option.scheduled && sub.recur_at ? (
                      <Badge tone="info">Starts {formatDate(sub.recur_at)}</Badge>
                    ) : null}
                  </span>
                  <span className="text-sm">
                    {option.price} / {perPeriod(option.period)}
                  </span>
                  {option.current ? null : <span className="text-sm text-muted">{option.note}</span>}
                </span>
              </label>
            ))
          )}
        </fieldset>

        <DialogFooter className="mt-2">
          <DialogClose asChild>
            <Button variant="outline">Keep my plan</Button>
          </DialogClose>
          <Button type="submit" disabled={!choice} loading={pending}>
            Change Plan
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  );
}
