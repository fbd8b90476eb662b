import { grantSubscription, type Plan } from "@hearth/contract";
import { Gift } from "lucide-react";
import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import { useGrantMonths } from "./api.ts";

type GrantField = "user_id" | "plan_id" | "months";

const messages: Record<GrantField, string> = {
  user_id: "Enter the member's account id.",
  plan_id: "Choose a plan.",
  months: "Months are a whole number from 1 to 36.",
};

/**
 * "Grant months" (the manual provider): months paid outside Hearth, or a gift. Another grant adds
 * months after what is already paid; a grant of another plan switches to it.
 */
export function GrantForm({ plans, defaultPlanId }: { plans: readonly Plan[]; defaultPlanId: string }) {
  const [userId, setUserId] = useState("");
  const [planId, setPlanId] = useState(defaultPlanId);
  const [months, setMonths] = useState("1");
  const [errors, setErrors] = useState<Partial<Record<GrantField, string>>>({});
  const [notice, setNotice] = useState("");
  const grant = useGrantMonths();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setNotice("");
    const parsed = grantSubscription.safeParse({
      user_id: userId.trim(),
      plan_id: planId,
      months: months.trim() === "" ? Number.NaN : Number(months),
    });
    if (!parsed.success) {
      const found: Partial<Record<GrantField, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as GrantField;
        if (field in messages) found[field] ??= messages[field];
      }
      setErrors(found);
      return;
    }
    setErrors({});
    grant.mutate(parsed.data, {
      onSuccess: (subscription) => {
        const plan = plans.find((p) => p.plan_id === parsed.data.plan_id);
        const until = subscription.recur_at
          ? ` It runs until ${new Intl.DateTimeFormat("en-US", { dateStyle: "long" }).format(new Date(subscription.recur_at))}.`
          : "";
        setNotice(
          `Granted ${parsed.data.months} month${parsed.data.months === 1 ? "" : "s"} of ${plan?.title ?? parsed.data.plan_id}.${until}`,
        );
        setUserId("");
      },
    });
  };

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby="grant-heading"
      className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-5 shadow-card sm:p-6"
    >
      <div className="flex flex-col gap-1">
        <h2 id="grant-heading" className="text-lg font-semibold">
          Grant months
        </h2>
        <p className="text-sm text-muted">
          Record months paid some other way, or give them. The member gets the plan's tier at once.
        </p>
      </div>
      <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1.5fr)_minmax(0,1fr)]">
        <Field id="grant-user" label="User id" error={errors.user_id}>
          <Input
            {...fieldControlProps("grant-user", errors.user_id)}
            value={userId}
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => setUserId(event.target.value)}
          />
        </Field>
        <Field id="grant-plan" label="Plan" error={errors.plan_id}>
          <Select
            {...fieldControlProps("grant-plan", errors.plan_id)}
            value={planId}
            onChange={(event) => setPlanId(event.target.value)}
          >
            {plans.map((plan) => (
              <option key={plan.plan_id} value={plan.plan_id}>
                {plan.title} ({plan.period === "annual" ? "yearly" : "monthly"})
              </option>
            ))}
          </Select>
        </Field>
        <Field id="grant-months" label="Months" error={errors.months}>
          <Input
            {...fieldControlProps("grant-months", errors.months)}
            type="number"
            min={1}
            max={36}
            step={1}
            value={months}
            onChange={(event) => setMonths(event.target.value)}
          />
        </Field>
      </div>
      <p role="status" className={notice ? "text-sm text-success" : "sr-only"}>
        {notice}
      </p>
      {grant.error ? (
        <Banner tone="danger" title="Nothing was granted">
          {errorMessage(grant.error)}
        </Banner>
      ) : null}
      <Button type="submit" className="self-start" loading={grant.isPending}>
        <Gift aria-hidden />
        Grant months
      </Button>
    </form>
  );
}
