import { Link } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { authApi } from "../features/auth/auth-api.ts";
import { AuthCard } from "../features/auth/auth-card.tsx";
import { checkEmail } from "../features/auth/validation.ts";
import { errorMessage } from "../lib/api.ts";
import { useAppConfig } from "../lib/session.ts";
import { Banner } from "../ui/banner.tsx";
import { Button } from "../ui/button.tsx";
import { Input } from "../ui/input.tsx";
import { Field, fieldControlProps } from "../ui/label.tsx";

/** The same answer for every address, so the page never tells whether an account exists. */
export const RESET_LINK_SENT = "If an account uses that address, we sent it a link.";

/**
 * Asks better-auth to mail a one-time reset link (only offered where the server has SMTP_URL);
 * the link opens /reset-password. Without mail, an administrator issues the link instead.
 */
export default function ForgotPasswordScreen() {
  const { auth } = useAppConfig();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = checkEmail(email);
    setError(problem);
    if (problem) return;
    setSending(true);
    setServerError(null);
    try {
      await authApi.requestPasswordReset({ email: email.trim(), redirectTo: "/reset-password" });
      setSent(true);
    } catch (e) {
      // Only a failure of the request itself (mail server down, too many tries) lands here.
      setServerError(errorMessage(e));
    } finally {
      setSending(false);
    }
  };

  return (
    <AuthCard
      title="Forgot your password?"
      description="We'll send you a link to choose a new one."
      footer={
        <Link to="/sign-in" className="font-medium text-accent-text hover:underline">
          Back to sign in
        </Link>
      }
    >
      {!auth.password_reset ? (
        <Banner tone="info">
          This server can't send e-mail. Ask an administrator for a password reset link: they can make one for
          your account on the Users page.
        </Banner>
      ) : sent ? (
        <Banner tone="success" title="Check your inbox">
          {RESET_LINK_SENT}
        </Banner>
      ) : (
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          {serverError ? <Banner tone="danger">{serverError}</Banner> : null}
          <Field id="forgot-email" label="Email" error={error}>
            <Input
              {...fieldControlProps("forgot-email", error)}
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          </Field>
          <Button type="submit" size="lg" loading={sending}>
            Send reset link
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
