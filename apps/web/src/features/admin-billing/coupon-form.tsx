import type { Plan } from "@hearth/contract";
import { Plus } from "lucide-react";
import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Input, Select } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import { useCreateCoupon } from "./api.ts";
import { type CouponField, type CouponFormValues, checkCouponForm, emptyCouponForm } from "./coupon-rules.ts";

const segment =
  "cursor-pointer rounded-md px-3 py-1.5 text-sm font-medium has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring";

/** Issue a coupon code: a percent or an amount off, once or every period, for some plans or all. */
export function CouponForm({
  plans,
  onCreated,
}: {
  plans: readonly Plan[];
  onCreated: (code: string) => void;
}) {
  const [form, setForm] = useState<CouponFormValues>(emptyCouponForm);
  const [errors, setErrors] = useState<Partial<Record<CouponField, string>>>({});
  const create = useCreateCoupon();
  const currency = (plans[0]?.currency ?? "usd").toUpperCase();

  const set = <K extends CouponField>(field: K, value: CouponFormValues[K]) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkCouponForm(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    create.mutate(checked.body, {
      onSuccess: (coupon) => {
        setForm(emptyCouponForm);
        setErrors({});
        onCreated(coupon.code);
      },
    });
  };

  const togglePlan = (planId: string, on: boolean) =>
    set("planIds", on ? [...form.planIds, planId] : form.planIds.filter((id) => id !== planId));

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby="coupon-form-heading"
      className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-5 shadow-card sm:p-6"
    >
      <h2 id="coupon-form-heading" className="text-lg font-semibold">
        New coupon
      </h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="coupon-code"
          label="Code"
          error={errors.code}
          hint="Letters, digits, _ and -; members type it at checkout."
        >
          <Input
            {...fieldControlProps("coupon-code", errors.code, true)}
            value={form.code}
            maxLength={32}
            autoCapitalize="characters"
            spellCheck={false}
            onChange={(event) => set("code", event.target.value.toUpperCase())}
          />
        </Field>
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1.5 text-sm font-medium">Discount</legend>
          <div className="flex flex-wrap items-start gap-2">
            <div className="inline-flex rounded-lg bg-surface-2 p-1">
              {(["percent", "amount"] as const).map((kind) => (
                <label
                  key={kind}
                  className={cn(
                    segment,
                    form.kind === kind ? "bg-surface text-fg shadow-sm" : "text-muted hover:text-fg",
                  )}
                >
                  <input
                    type="radio"
                    name="coupon-kind"
                    value={kind}
                    checked={form.kind === kind}
                    onChange={() => set("kind", kind)}
                    className="sr-only"
                  />
                  {kind === "percent" ? "Percent" : `Amount (${currency})`}
                </label>
              ))}
            </div>
            <div className="flex min-w-28 flex-1 flex-col gap-1.5">
              <Input
                {...fieldControlProps("coupon-value", errors.value)}
                aria-label={form.kind === "percent" ? "Percent off" : `Amount off in ${currency}`}
                inputMode="decimal"
                value={form.value}
                onChange={(event) => set("value", event.target.value)}
              />
            </div>
          </div>
          {errors.value ? (
            <p id="coupon-value-error" className="text-sm text-danger" role="alert">
              {errors.value}
            </p>
          ) : null}
        </fieldset>
        <Field id="coupon-duration" label="Applies" error={errors.duration}>
          <Select
            {...fieldControlProps("coupon-duration", errors.duration)}
            value={form.duration}
            onChange={(event) => set("duration", event.target.value as CouponFormValues["duration"])}
          >
            <option value="once">Once (the first payment)</option>
            <option value="forever">Forever (every payment)</option>
          </Select>
        </Field>
        <Field
          id="coupon-limit"
          label="Max redemptions"
          error={errors.maxRedemptions}
          hint="Empty: no limit."
        >
          <Input
            {...fieldControlProps("coupon-limit", errors.maxRedemptions, true)}
            inputMode="numeric"
            value={form.maxRedemptions}
            onChange={(event) => set("maxRedemptions", event.target.value)}
          />
        </Field>
        <Field id="coupon-expiry" label="Expires after" error={errors.expiresOn} hint="Empty: never.">
          <Input
            {...fieldControlProps("coupon-expiry", errors.expiresOn, true)}
            type="date"
            value={form.expiresOn}
            onChange={(event) => set("expiresOn", event.target.value)}
          />
        </Field>
        <fieldset className="flex flex-col gap-2 sm:col-span-2">
          <legend className="mb-1 text-sm font-medium">Plans</legend>
          <p className="text-sm text-muted">None ticked: every plan.</p>
          <div className="grid gap-2 sm:grid-cols-2">
            {plans.map((plan) => (
              <label key={plan.plan_id} className="flex cursor-pointer items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 accent-(--brand-accent)"
                  checked={form.planIds.includes(plan.plan_id)}
                  onChange={(event) => togglePlan(plan.plan_id, event.target.checked)}
                />
                {plan.title} ({plan.period === "annual" ? "yearly" : "monthly"})
              </label>
            ))}
          </div>
          {errors.planIds ? (
            <p className="text-sm text-danger" role="alert">
              {errors.planIds}
            </p>
          ) : null}
        </fieldset>
      </div>
      {create.error ? (
        <Banner tone="danger" title="The coupon wasn't created">
          {errorMessage(create.error)}
        </Banner>
      ) : null}
      <Button type="submit" className="self-start" loading={create.isPending}>
        <Plus aria-hidden />
        Create coupon
      </Button>
    </form>
  );
}
