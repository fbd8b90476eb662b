import { accountLifecycleEndpoints, emailAddress, needsEmail } from "@hearth/contract";
import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { useSessionActions } from "../features/auth/use-session-actions.ts";
import { errorMessage } from "../lib/api.ts";
import { call } from "../lib/client.ts";
import { useMe } from "../lib/session.ts";
import { Banner } from "../ui/banner.tsx";
import { Button } from "../ui/button.tsx";
import { Input } from "../ui/input.tsx";
import { Field, fieldControlProps } from "../ui/label.tsx";
import { Page, PageHeader } from "../ui/page.tsx";

/** /update-email (accounts-billing-admin §2.2, §5): a real address for a private-relay account. */
export default function UpdateEmailScreen() {
  const me = useMe();
  const navigate = useNavigate();
  const { refreshSession } = useSessionActions();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  if (me && !needsEmail(me.email)) {
    return (
      <Page width="narrow">
        <PageHeader title="Your e-mail" />
        <Banner tone="info">Your account already has an e-mail address ({me.email}).</Banner>
      </Page>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailAddress.safeParse(email);
    setError(
      parsed.success ? null : (parsed.error.issues[0]?.message ?? "Please enter a valid email address"),
    );
    if (!parsed.success) return;
    setSaving(true);
    setServerError(null);
    try {
      await call(accountLifecycleEndpoints.updateEmail, { body: { email: parsed.data } });
      await refreshSession();
      await navigate({ to: "/" });
    } catch (e) {
      setServerError(errorMessage(e));
      setSaving(false);
    }
  };

  return (
    <Page width="narrow">
      <PageHeader
        title="Add your e-mail"
        description="Your sign-in provider hid your address from us. Tell us where to reach you."
      />
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {serverError ? <Banner tone="danger">{serverError}</Banner> : null}
        <Field id="update-email" label="Email" error={error}>
          <Input
            {...fieldControlProps("update-email", error)}
            type="email"
            name="email"
            autoComplete="email"
            inputMode="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </Field>
        <Button type="submit" loading={saving}>
          Save e-mail
        </Button>
      </form>
    </Page>
  );
}
