import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import { authApi } from "./auth-api.ts";
import { useSessionActions } from "./use-session-actions.ts";
import { checkEmail, checkName, checkPassword, nameMaxLength, passwordMinLength } from "./validation.ts";

type FieldErrors = { name?: string | null; email?: string | null; password?: string | null };

export function EmailSignUpForm({ redirectTo }: { redirectTo: string }) {
  const { signedIn } = useSessionActions();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { name: checkName(name), email: checkEmail(email), password: checkPassword(password) };
    setErrors(found);
    if (found.name || found.email || found.password) return;
    setSubmitting(true);
    setServerError(null);
    try {
      await authApi.signUpWithEmail({ name: name.trim(), email: email.trim(), password });
      await signedIn(redirectTo);
    } catch (error) {
      setServerError(errorMessage(error));
      setSubmitting(false);
    }
  };

  const passwordHint = `At least ${passwordMinLength} characters.`;
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      {serverError ? <Banner tone="danger">{serverError}</Banner> : null}
      <Field
        id="sign-up-name"
        label="Display name"
        error={errors.name}
        hint="How characters and others will see you."
      >
        <Input
          {...fieldControlProps("sign-up-name", errors.name, true)}
          name="name"
          autoComplete="nickname"
          maxLength={nameMaxLength}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </Field>
      <Field id="sign-up-email" label="Email" error={errors.email}>
        <Input
          {...fieldControlProps("sign-up-email", errors.email)}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      <Field id="sign-up-password" label="Password" error={errors.password} hint={passwordHint}>
        <Input
          {...fieldControlProps("sign-up-password", errors.password, true)}
          type="password"
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <Button type="submit" size="lg" loading={submitting} className="mt-2">
        Create account
      </Button>
    </form>
  );
}
