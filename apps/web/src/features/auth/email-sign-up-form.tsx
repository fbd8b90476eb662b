import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import { useUsernameAvailability } from "../onboarding/username-check.ts";
import { authApi } from "./auth-api.ts";
import { useSessionActions } from "./use-session-actions.ts";
import {
  checkEmail,
  checkName,
  checkPassword,
  checkSignUpUsername,
  nameMaxLength,
  passwordMinLength,
} from "./validation.ts";

type FieldErrors = {
  username?: string | null;
  name?: string | null;
  email?: string | null;
  password?: string | null;
};

const USERNAME_UNAVAILABLE = "Username is not available";

export function EmailSignUpForm({ redirectTo }: { redirectTo: string }) {
  const { signedIn } = useSessionActions();
  const [username, setUsername] = useState("");
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const typedUsername = username.trim();
  const availability = useUsernameAvailability(typedUsername);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      username:
        checkSignUpUsername(username) ?? (availability === "unavailable" ? USERNAME_UNAVAILABLE : null),
      name: checkName(name),
      email: checkEmail(email),
      password: checkPassword(password),
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setSubmitting(true);
    setServerError(null);
    try {
      await authApi.signUpWithEmail({
        username: typedUsername,
        name: name.trim(),
        email: email.trim(),
        password,
      });
      await signedIn(redirectTo);
    } catch (error) {
      const message = errorMessage(error);
      // The server's refusals of one field (a username taken since the check or reserved, a
      // name with nothing visible, a password easy to guess) belong under that field.
      const field = /username/i.test(message)
        ? "username"
        : /password/i.test(message)
          ? "password"
          : /^name\b/i.test(message)
            ? "name"
            : null;
      if (field) setErrors((e) => ({ ...e, [field]: message }));
      else setServerError(message);
      setSubmitting(false);
    }
  };

  // The rule's message shows as the member types (§5), then the debounced availability.
  const usernameError =
    errors.username ??
    (typedUsername ? checkSignUpUsername(typedUsername) : null) ??
    (availability === "unavailable" ? USERNAME_UNAVAILABLE : null);
  const usernameHint =
    availability === "checking"
      ? "Checking…"
      : availability === "available"
        ? "Username is available"
        : "4 to 20 letters, digits, _ or -.";

  const passwordHint = `At least ${passwordMinLength} characters.`;
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      {serverError ? <Banner tone="danger">{serverError}</Banner> : null}
      <Field
        id="sign-up-username"
        label="Username"
        error={usernameError}
        hint={<span aria-live="polite">{usernameHint}</span>}
      >
        <Input
          {...fieldControlProps("sign-up-username", usernameError, true)}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={40}
          value={username}
          onChange={(event) => {
            setUsername(event.target.value);
            setErrors((e) => ({ ...e, username: null }));
          }}
        />
      </Field>
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
