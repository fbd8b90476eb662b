import {
  AGE_REQUIRED_MESSAGE,
  accountLifecycleEndpoints,
  displayName,
  type OnboardingState,
  type OnboardingStep,
  TERMS_REQUIRED_MESSAGE,
} from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useAppSettings } from "../../lib/app-settings.ts";
import { call } from "../../lib/client.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import { usernameProblem, useUsernameAvailability } from "./username-check.ts";

const GUIDELINES = [
  "Be kind to other members; no harassment, hate or threats.",
  "No sexual content involving minors, ever, in bots or chats.",
  "Mark adult bots as NSFW and keep them out of public safe spaces.",
  "Don't impersonate real people or share anyone's private information.",
  "Report bots and messages that break these rules.",
];

/**
 * Onboarding's steps (accounts-billing-admin §2.2, §4): welcome-aboard, community guidelines,
 * submit, done. Every step change is saved on the server, so another device resumes there.
 */
export function OnboardingFlow({ saved, onDone }: { saved: OnboardingState; onDone: () => Promise<void> }) {
  const [step, setStep] = useState<OnboardingStep>(saved.step === "done" ? "welcome" : saved.step);
  const [username, setUsername] = useState(saved.username);
  const [name, setName] = useState(saved.name);
  const [adult, setAdult] = useState(false);
  const [terms, setTerms] = useState(false);
  const [guidelines, setGuidelines] = useState(saved.guidelines);
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Onboarding v2 (flag onboarding_v2) checks the username by §5 and asks whether it is free as
  // it is typed; the older flow checks it when Continue is pressed, and the server has the last word.
  const v2 = useAppSettings().flags.onboarding_v2;
  const availability = useUsernameAvailability(v2 ? username.trim() : "");
  const ids = useId();

  const save = (next: OnboardingStep, extra: { guidelines?: boolean } = {}) =>
    call(accountLifecycleEndpoints.saveOnboarding, {
      body: { step: next, username: username.slice(0, 100), name: name.slice(0, 100), ...extra },
    }).catch(() => undefined); // Saving the draft is a convenience: a failure must not block the member.

  const welcomeErrors = () => {
    const nameCheck = displayName.safeParse(name);
    return {
      username:
        usernameProblem(username.trim()) ??
        (availability === "unavailable" ? "Username is not available" : null),
      name: nameCheck.success ? null : (nameCheck.error.issues[0]?.message ?? null),
      adult: adult ? null : AGE_REQUIRED_MESSAGE,
      terms: terms ? null : TERMS_REQUIRED_MESSAGE,
    };
  };

  const toGuidelines = async (event: FormEvent) => {
    event.preventDefault();
    const found = welcomeErrors();
    setErrors(found);
    if (Object.values(found).some(Boolean) || availability === "checking") return;
    setStep("guidelines");
    await save("guidelines");
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setServerError(null);
    await save("submit", { guidelines: true });
    try {
      await call(accountLifecycleEndpoints.completeOnboarding, {
        body: { username: username.trim(), name: name.trim(), adult: true, terms: true, guidelines: true },
      });
      setStep("done");
    } catch (e) {
      setServerError(errorMessage(e));
      // A username taken meanwhile sends the member back to choose another.
      setStep("welcome");
    } finally {
      setBusy(false);
    }
  };

  if (step === "done") {
    return (
      <div className="flex flex-col gap-4">
        <h2 className="text-xl font-semibold">You're all set, {name.trim()}!</h2>
        <p className="text-muted">Your profile is saved as @{username.trim().toLowerCase()}.</p>
        <Button onClick={() => void onDone()}>Go to the chatbots</Button>
      </div>
    );
  }

  if (step === "guidelines" || step === "submit") {
    return (
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <h2 className="text-xl font-semibold">Community guidelines</h2>
        {serverError ? <Banner tone="danger">{serverError}</Banner> : null}
        <ul className="flex list-disc flex-col gap-2 pl-5 text-sm">
          {GUIDELINES.map((g) => (
            <li key={g}>{g}</li>
          ))}
        </ul>
        <Check
          id={`${ids}-guidelines`}
          checked={guidelines}
          onChange={(v) => {
            setGuidelines(v);
            void save(step, { guidelines: v });
          }}
          label="I have read and will follow the community guidelines"
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
          <Button type="button" variant="outline" onClick={() => setStep("welcome")}>
            Back
          </Button>
          <Button type="submit" disabled={!guidelines} loading={busy}>
            Start Chatting
          </Button>
        </div>
      </form>
    );
  }

  // Shown as the member types (§5), beside the message a refused Continue left.
  const typed = username.trim();
  const usernameError =
    errors.username ??
    (v2 && typed ? usernameProblem(typed) : null) ??
    (availability === "unavailable" ? "Username is not available" : null);
  const usernameHint =
    availability === "checking"
      ? "Checking…"
      : availability === "available"
        ? "Username is available"
        : "3 to 20 letters, digits, _ or -.";
  return (
    <form noValidate onSubmit={toGuidelines} className="flex flex-col gap-4">
      <h2 className="text-xl font-semibold">Welcome aboard!</h2>
      {serverError ? <Banner tone="danger">{serverError}</Banner> : null}
      <Field
        id={`${ids}-username`}
        label="Username"
        error={usernameError}
        hint={<span aria-live="polite">{usernameHint}</span>}
      >
        <Input
          {...fieldControlProps(`${ids}-username`, usernameError, true)}
          name="username"
          autoComplete="username"
          maxLength={40}
          value={username}
          onChange={(event) => {
            setUsername(event.target.value);
            setErrors((e) => ({ ...e, username: null }));
          }}
        />
      </Field>
      <Field id={`${ids}-name`} label="Display name" error={errors.name}>
        <Input
          {...fieldControlProps(`${ids}-name`, errors.name)}
          name="name"
          autoComplete="nickname"
          maxLength={40}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </Field>
      <Check
        id={`${ids}-adult`}
        checked={adult}
        onChange={setAdult}
        error={errors.adult}
        label="I confirm that I am 18 years or older"
      />
      <Check
        id={`${ids}-terms`}
        checked={terms}
        onChange={setTerms}
        error={errors.terms}
        label={
          <>
            I agree with the{" "}
            <Link to="/terms" className="font-medium text-accent-text underline">
              terms and conditions
            </Link>
          </>
        }
      />
      <Button type="submit">Continue</Button>
    </form>
  );
}

function Check({
  id,
  checked,
  onChange,
  label,
  error,
}: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: ReactNode;
  error?: string | null;
}) {
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          className="mt-1 size-4 accent-accent"
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id} className="text-sm">
          {label}
        </label>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
