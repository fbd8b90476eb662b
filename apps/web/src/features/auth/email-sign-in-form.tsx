import { Link } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import { authApi } from "./auth-api.ts";
import { useSessionActions } from "./use-session-actions.ts";
import { checkEmail } from "./validation.ts";

export function EmailSignInForm({ redirectTo }: { redirectTo: string }) {
  const { signedIn } = useSessionActions();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ email?: string | null; password?: string | null }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { email: checkEmail(email), password: password ? null : "Password can't be empty" };
    setErrors(found);
    if (found.email || found.password) return;
    setSubmitting(true);
    setServerError(null);
    try {
      await authApi.signInWithEmail({ email: email.trim(), password });
      await signedIn(redirectTo);
    } catch (error) {
      setServerError(errorMessage(error));
      setSubmitting(false);
    }
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      {serverError ? <Banner tone="danger">{serverError}</Banner> : null}
      <Field id="sign-in-email" label="Email" error={errors.email}>
        <Input
          {...fieldControlProps("sign-in-email", errors.email)}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      <Field id="sign-in-password" label="Password" error={errors.password}>
        <Input
          {...fieldControlProps("sign-in-password", errors.password)}
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <Link to="/forgot-password" className="self-end text-sm font-medium text-accent-text hover:underline">
        Forgot password?
      </Link>
      <Button type="submit" size="lg" loading={submitting} className="mt-2">
        Sign in
      </Button>
    </form>
  );
}
