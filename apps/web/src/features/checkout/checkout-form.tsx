import type { CheckoutOptions, Me, Plan } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";
import { onFileQuery, statesQuery, useCalculation } from "./api.ts";
import { CardField, type CardHandle } from "./card-field.tsx";
import { initialDetails, restoreDetails, saveDetails, sessionStore } from "./details-store.ts";
import { PaymentMethods } from "./payment-methods.tsx";
import { OnFileSummary, PersonalInfoForm, SavedCard } from "./personal-info.tsx";
import {
  CALCULATE_DEBOUNCE_MS,
  type CheckoutSearch,
  calculationRequest,
  countryFromLocales,
  couponError,
  type DetailField,
  detailProblems,
  detailsFromOnFile,
  exitStage,
  type MethodId,
  normalisePostalCode,
  type PersonalDetails,
  periodWord,
  submitBlockers,
} from "./rules.ts";
import { SummaryPanel } from "./summary-panel.tsx";
import { ThreeDsDialog } from "./three-ds-dialog.tsx";
import { useExitEvent } from "./use-exit-event.ts";
import { usePlaceOrder } from "./use-place-order.ts";

type Countries = { code: string; name: string; has_states: boolean; state_label: "State" | "Province" }[];

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={id}
      className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-5 shadow-card sm:p-6"
    >
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Where the on-file details stand: not answered yet, shown in place of the form, or being changed. */
type OnFileMode = "unknown" | "summary" | "editing";

/** The checkout form (§2.2, §4, §5): details, payment method, card, summary, terms, submit. */
export function CheckoutForm({
  me,
  plan,
  search,
  options,
  methods,
  countries,
}: {
  me: Me;
  plan: Plan;
  search: CheckoutSearch;
  options: CheckoutOptions;
  methods: { id: MethodId; label: string }[];
  countries: Countries;
}) {
  const navigate = useNavigate();
  const [details, setDetails] = useState<PersonalDetails>(() =>
    initialDetails(
      restoreDetails(sessionStore(), me.id),
      me,
      countryFromLocales(
        navigator.languages ?? [navigator.language],
        countries.map((c) => c.code),
      ),
    ),
  );
  const [shown, setShown] = useState<Partial<Record<DetailField, string>>>({});
  const [method, setMethod] = useState<MethodId>(methods[0]?.id ?? "manual");
  const [promo, setPromo] = useState<string | null>(search.coupon);
  const [couponFromLink, setCouponFromLink] = useState(search.coupon !== null);
  const [terms, setTerms] = useState(false);
  const [card, setCard] = useState<CardHandle | null>(null);
  const [cardComplete, setCardComplete] = useState(false);
  const [cardTouched, setCardTouched] = useState(false);
  const [newCard, setNewCard] = useState(false);
  const [onFileMode, setOnFileMode] = useState<OnFileMode>("unknown");

  const country = countries.find((c) => c.code === details.country);
  const states = useQuery({ ...statesQuery(details.country), enabled: Boolean(country?.has_states) });

  useEffect(() => saveDetails(sessionStore(), me.id, details), [details, me.id]);

  const email = useDebouncedValue(details.email, CALCULATE_DEBOUNCE_MS);
  const postal = useDebouncedValue(details.postal_code, CALCULATE_DEBOUNCE_MS);
  const request = calculationRequest(
    { planId: plan.plan_id, offerId: search.offerId, promoCode: promo },
    { ...details, email, postal_code: postal },
    country,
  );
  const calculation = useCalculation(request);
  const figures = calculation.data;
  const saved = useQuery(onFileQuery);
  const onFile = figures?.on_file ?? saved.data?.on_file ?? null;

  // §2.2: details the server saved replace the form with a summary (once; Change brings it back).
  useEffect(() => {
    if (onFileMode !== "unknown" || !onFile) return;
    setOnFileMode("summary");
    setDetails(detailsFromOnFile(onFile));
    setShown({});
  }, [onFile, onFileMode]);

  const exit = useExitEvent(plan.plan_id, () =>
    exitStage({ challengeOpen: order.challenge !== null, cardTouched }),
  );
  const order = usePlaceOrder({
    onApproved: (orderId) => {
      exit.finished();
      void navigate({ to: "/checkout/success", search: { order_id: orderId } });
    },
    onRedirect: (url) => {
      exit.finished();
      window.location.assign(url);
    },
  });

  const problems = detailProblems(details, country);
  const savedCard = onFileMode === "summary" && !newCard ? (onFile?.credit_card ?? null) : null;
  const badCoupon = couponError(figures, promo);
  const calcError = calculation.isError && request ? errorMessage(calculation.error) : null;
  const blockers = submitBlockers({
    details,
    country,
    method,
    cardComplete: method !== "card" || savedCard !== null || (card !== null && cardComplete),
    termsAgreed: terms,
    inFlight: order.placing || calculation.isFetching,
    // A refused payment's message stays shown while the member tries again (its text says to).
    errorShowing: Object.values(shown).some(Boolean) || badCoupon !== null || calcError !== null,
  });

  const change = (field: DetailField, raw: string) => {
    const value = field === "postal_code" ? normalisePostalCode(raw) : raw;
    const next = { ...details, [field]: value, ...(field === "country" ? { state: "" } : {}) };
    setDetails(next);
    order.clearErrors();
    // A shown error goes as soon as the field is right; a new one waits for the blur (§5).
    const nextProblems = detailProblems(
      next,
      countries.find((c) => c.code === next.country),
    );
    setShown((current) => {
      const kept = { ...current };
      for (const key of Object.keys(kept) as DetailField[]) if (!nextProblems[key]) delete kept[key];
      if (field === "country" && current.postal_code && nextProblems.postal_code) {
        kept.postal_code = nextProblems.postal_code;
      }
      return kept;
    });
  };
  const blur = (field: DetailField) => setShown((current) => ({ ...current, [field]: problems[field] }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(problems).length > 0) {
      setShown(problems);
      const first = (Object.keys(problems) as DetailField[])[0];
      if (onFileMode === "summary") setOnFileMode("editing");
      else if (first) document.getElementById(`checkout-${first.replace("_", "-")}`)?.focus();
      return;
    }
    if (blockers.length > 0 || !country) return;
    void order.place({
      method,
      planId: plan.plan_id,
      offerId: search.offerId,
      promoCode: promo,
      details,
      country,
      card: method === "card" ? card : null,
      savedCard: method === "card" && savedCard !== null,
    });
  };

  const countryName = (code: string) => countries.find((c) => c.code === code)?.name ?? code;

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(20rem,24rem)]">
      <form id="checkout-form" noValidate onSubmit={submit} className="flex flex-col gap-6">
        <Section id="checkout-details-heading" title="Your details">
          {onFileMode === "summary" && onFile ? (
            <OnFileSummary
              onFile={onFile}
              countryName={countryName(onFile.country)}
              onChange={() => setOnFileMode("editing")}
            />
          ) : (
            <PersonalInfoForm
              details={details}
              errors={shown}
              countries={countries}
              country={country}
              states={country?.has_states ? (states.data ?? null) : []}
              onChange={change}
              onBlur={blur}
            />
          )}
        </Section>

        <Section id="checkout-payment-heading" title="Payment method">
          <fieldset className="flex flex-col gap-2">
            <legend className="sr-only">How to pay</legend>
            <PaymentMethods
              methods={methods}
              value={method}
              disabled={order.placing}
              onChange={(id) => {
                setMethod(id);
                order.clearErrors();
              }}
            />
          </fieldset>
          {method === "card" && options.card ? (
            savedCard ? (
              <div className="flex flex-col gap-2">
                <SavedCard card={savedCard} onChange={() => setNewCard(true)} />
                <p className="text-sm text-muted">This card is charged. Press Change to pay with another.</p>
              </div>
            ) : (
              <CardField
                provider={options.card}
                onCard={(handle) => {
                  setCard(handle);
                  if (!handle) setCardComplete(false);
                }}
                onChange={(event) => {
                  setCardTouched(true);
                  setCardComplete(event.complete && !event.error);
                  order.clearErrors();
                }}
              />
            )
          ) : null}
          {method === "manual" && options.manual_instructions ? (
            <div className="rounded-lg border border-border bg-surface-2/40 p-4 text-sm">
              <p className="mb-1 font-medium">How paying by arrangement works</p>
              <p className="whitespace-pre-line text-muted">{options.manual_instructions}</p>
              <p className="mt-2 text-muted">
                Your plan starts as soon as an administrator confirms your payment.
              </p>
            </div>
          ) : null}
        </Section>
      </form>

      <SummaryPanel
        plan={plan}
        figures={figures}
        priced={request !== null && figures !== undefined}
        period={periodWord(plan.plan_id)}
        updating={calculation.isFetching}
        showCouponBox={!couponFromLink && promo === null}
        code={promo ?? search.offerId}
        onApplyCoupon={(code) => {
          setPromo(code);
          order.clearErrors();
        }}
        onRemoveCoupon={() => {
          setPromo(null);
          setCouponFromLink(false);
        }}
        terms={terms}
        onTerms={setTerms}
        method={method}
        placing={order.placing}
        blocker={blockers.find((b) => b !== "Wait a moment…") ?? null}
        disabled={blockers.length > 0}
        errors={[...(calcError ? [calcError] : []), ...order.errors]}
      />

      <ThreeDsDialog
        url={order.challenge?.url ?? null}
        onResult={order.onChallengeResult}
        onDismiss={order.dismissChallenge}
      />
    </div>
  );
}
