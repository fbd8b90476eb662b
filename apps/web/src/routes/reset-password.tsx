import { Link, useSearch } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { checkPassword, passwordMinLength } from "../features/auth/validation.ts";
import { api, errorMessage } from "../lib/api.ts";
import { Banner } from "../ui/banner.tsx";
import { Button, buttonClass } from "../ui/button.tsx";
import { Input } from "../ui/input.tsx";
import { Field, fieldControlProps } from "../ui/label.tsx";
import { Page, PageHeader } from "../ui/page.tsx";

/**
 * Where a one-time reset link leads (from an administrator or by e-mail): a new password, set
 * through better-auth's /api/auth/reset-password, which signs out every session of the account.
 */
export default function ResetPasswordScreen() {
  const search = useSearch({ strict: false }) as { token?: unknown };
  const token = typeof search.token === "string" ? search.token : "";
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = checkPassword(password);
    setError(problem);
    if (problem) return;
    setSaving(true);
    setServerError(null);
    try {
      await api.post<unknown>("/api/auth/reset-password", { token, newPassword: password });
      setDone(true);
    } catch (e) {
      // A refused password (too short, easy to guess) is said under the field; a bad link above the form.
      const message = errorMessage(e);
      if (/password/i.test(message)) setError(message);
      else setServerError(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Page width="narrow">
      <PageHeader title="Choose a new password" />
      {!token ? (
        <Banner tone="danger">This link is incomplete. Ask for a new password reset link.</Banner>
      ) : done ? (
        <div className="flex flex-col gap-4">
          <Banner tone="success">Your password is changed. Sign in with it now.</Banner>
          <Link to="/sign-in" className={buttonClass("primary")}>
            Sign in
          </Link>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          {serverError ? <Banner tone="danger">{serverError}</Banner> : null}
          <Field
            id="reset-password"
            label="New password"
            error={error}
            hint={`At least ${passwordMinLength} characters.`}
          >
            <Input
              {...fieldControlProps("reset-password", error, true)}
              type="password"
              name="password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </Field>
          <Button type="submit" loading={saving}>
            Set new password
          </Button>
        </form>
      )}
    </Page>
  );
}
