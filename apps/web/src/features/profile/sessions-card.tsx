import { accountEndpoints } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { sessionsQuery } from "./api.ts";

/** The account's signed-in devices: sign out one, or every other one. */
export function SessionsSection() {
  const queryClient = useQueryClient();
  const list = useQuery(sessionsQuery);
  const [status, setStatus] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey });
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      setStatus(done);
    } catch (caught) {
      setStatus(errorMessage(caught));
    }
    await refresh();
  };
  return (
    <section aria-labelledby="sessions-heading" className="flex flex-col gap-3">
      <h2 id="sessions-heading" className="text-lg font-semibold">
        Active sessions
      </h2>
      {list.isPending ? (
        <PageSpinner label="Loading your sessions" />
      ) : list.isError ? (
        <LoadErrorBanner
          title="Your sessions couldn't be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <ul className="flex flex-col gap-2">
          {list.data.sessions.map((s) => (
            <li
              key={s.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-border p-3"
            >
              <div className="flex min-w-0 flex-col gap-0.5 text-sm">
                <span className="break-words font-medium">
                  {s.user_agent || "Unknown device"} {s.current ? <Badge>This device</Badge> : null}
                </span>
                <span className="text-muted">
                  {s.ip_address || "Unknown address"} · last active{" "}
                  {new Date(s.last_active_at).toLocaleString()}
                </span>
              </div>
              {s.current ? null : (
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() =>
                    void act(
                      () => call(accountEndpoints.revokeSession, { params: { id: s.id } }),
                      "Signed out that session.",
                    )
                  }
                >
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div>
        <Button
          variant="outline"
          onClick={() =>
            void act(
              () => call(accountEndpoints.revokeOtherSessions, {}),
              "Signed out of every other session.",
            )
          }
        >
          Sign out of all other sessions
        </Button>
      </div>
      {status ? (
        <p role="status" className="text-sm text-muted">
          {status}
        </p>
      ) : null}
    </section>
  );
}

/** Password change: the current one, then the new one; other sessions are signed out by the server. */
export function PasswordSection() {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [errors, setErrors] = useState<{ current?: string; next?: string; form?: string }>({});
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    setSaved(false);
    try {
      await call(accountEndpoints.changePassword, {
        body: { current_password: current, new_password: next },
      });
      setCurrent("");
      setNext("");
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey });
    } catch (caught) {
      const issue = isApiRequestError(caught) ? caught.issues?.[0] : undefined;
      if (issue?.path === "current_password") setErrors({ current: issue.message });
      else if (issue?.path === "new_password") setErrors({ next: issue.message });
      else setErrors({ form: errorMessage(caught) });
    } finally {
      setSaving(false);
    }
  };
  return (
    <section aria-labelledby="password-heading" className="flex flex-col gap-3">
      <h2 id="password-heading" className="text-lg font-semibold">
        Password
      </h2>
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3" noValidate>
        <Field id="current-password" label="Current password" error={errors.current}>
          <Input
            {...fieldControlProps("current-password", errors.current)}
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </Field>
        <Field id="new-password" label="New password" error={errors.next} hint="At least 10 characters.">
          <Input
            {...fieldControlProps("new-password", errors.next, true)}
            type="password"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
        </Field>
        {errors.form ? (
          <p role="alert" className="text-sm text-danger">
            {errors.form}
          </p>
        ) : null}
        {saved ? (
          <p role="status" className="text-sm text-success">
            Password changed. Your other sessions were signed out.
          </p>
        ) : null}
        <div>
          <Button type="submit" loading={saving} disabled={!current || !next}>
            Change password
          </Button>
        </div>
      </form>
    </section>
  );
}
