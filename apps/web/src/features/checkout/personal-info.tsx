import type { CheckoutCalculation } from "@hearth/contract";
import { Button } from "../../ui/button.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import {
  type CountryInfo,
  type DetailField,
  EMAIL_MAX,
  NAME_MAX,
  type PersonalDetails,
  POSTAL_CODE_MAX,
  postalLabel,
} from "./rules.ts";

interface Country extends CountryInfo {
  name: string;
}

export interface PersonalInfoProps {
  details: PersonalDetails;
  /** Errors to show now (fields the member has left, or all after a refused order). */
  errors: Partial<Record<DetailField, string>>;
  countries: readonly Country[];
  country: Country | undefined;
  /** The chosen country's states; null while they load. */
  states: readonly { code: string; name: string }[] | null;
  onChange: (field: DetailField, value: string) => void;
  onBlur: (field: DetailField) => void;
}

const id = (field: DetailField) => `checkout-${field.replace("_", "-")}`;

/** §2.2 personal info: names, e-mail and the billing address the price and taxes depend on. */
export function PersonalInfoForm({
  details,
  errors,
  countries,
  country,
  states,
  onChange,
  onBlur,
}: PersonalInfoProps) {
  const text = (field: DetailField, label: string, props: Record<string, unknown>, className?: string) => (
    <Field id={id(field)} label={label} error={errors[field]} className={className}>
      <Input
        {...fieldControlProps(id(field), errors[field])}
        value={details[field]}
        onChange={(event) => onChange(field, event.target.value)}
        onBlur={() => onBlur(field)}
        {...props}
      />
    </Field>
  );
  const stateLabel = country?.state_label ?? "State";
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {text("first_name", "First name", { autoComplete: "given-name", maxLength: NAME_MAX, required: true })}
      {text("last_name", "Last name", { autoComplete: "family-name", maxLength: NAME_MAX, required: true })}
      {text(
        "email",
        "Email",
        { type: "email", autoComplete: "email", maxLength: EMAIL_MAX, required: true, spellCheck: false },
        "sm:col-span-2",
      )}
      <Field id={id("country")} label="Country" error={errors.country} className="sm:col-span-2">
        <Select
          {...fieldControlProps(id("country"), errors.country)}
          value={details.country}
          autoComplete="country"
          required
          onChange={(event) => onChange("country", event.target.value)}
          onBlur={() => onBlur("country")}
        >
          <option value="" disabled>
            Choose a country
          </option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </Select>
      </Field>
      {country?.has_states ? (
        <Field id={id("state")} label={stateLabel} error={errors.state}>
          <Select
            {...fieldControlProps(id("state"), errors.state)}
            value={details.state}
            autoComplete="address-level1"
            required
            disabled={states === null}
            onChange={(event) => onChange("state", event.target.value)}
            onBlur={() => onBlur("state")}
          >
            <option value="" disabled>
              {states === null ? "Loading…" : `Choose a ${stateLabel.toLowerCase()}`}
            </option>
            {(states ?? []).map((s) => (
              <option key={s.code} value={s.code}>
                {s.name}
              </option>
            ))}
          </Select>
        </Field>
      ) : null}
      {text("postal_code", postalLabel(details.country), {
        autoComplete: "postal-code",
        maxLength: POSTAL_CODE_MAX,
        required: true,
        spellCheck: false,
        autoCapitalize: "characters",
      })}
    </div>
  );
}

type OnFile = NonNullable<CheckoutCalculation["on_file"]>;

/** The details saved from the last paid order, in place of the form until the member changes them. */
export function OnFileSummary({
  onFile,
  countryName,
  onChange,
}: {
  onFile: OnFile;
  countryName: string;
  onChange: () => void;
}) {
  const place = [
    onFile.postal_code,
    onFile.state && onFile.state !== "N/A" ? onFile.state : null,
    countryName,
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-border bg-surface-2/40 p-4">
      <dl className="flex min-w-0 flex-col gap-1 text-sm">
        <dt className="sr-only">Name</dt>
        <dd className="font-medium">
          {onFile.first_name} {onFile.last_name}
        </dd>
        <dt className="sr-only">Email</dt>
        <dd className="break-all text-muted">{onFile.email}</dd>
        <dt className="sr-only">Billing address</dt>
        <dd className="text-muted">{place}</dd>
      </dl>
      <Button variant="outline" size="sm" onClick={onChange} aria-label="Change your details">
        Change
      </Button>
    </div>
  );
}

/** A card the server keeps for the member: brand, last 4 and expiry, with Change. */
export function SavedCard({
  card,
  onChange,
}: {
  card: NonNullable<OnFile["credit_card"]>;
  onChange: () => void;
}) {
  const brand = card.type ? card.type.charAt(0).toUpperCase() + card.type.slice(1) : "Card";
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border bg-surface-2/40 p-4">
      <p className="text-sm">
        <span className="font-medium">
          {brand} ending in {card.last_4}
        </span>
        {card.exp ? <span className="text-muted"> · expires {card.exp}</span> : null}
      </p>
      <Button variant="outline" size="sm" onClick={onChange} aria-label="Change the card">
        Change
      </Button>
    </div>
  );
}
