import { type AdminUser, accountLifecycleEndpoints, type PasswordResetLink } from "@hearth/contract";
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";

/**
 * A one-time password reset link for a member who forgot theirs (issue 12 item 5): shown once,
 * to copy and hand over; it works once, for an hour, and ends the member's sessions when used.
 */
export function ResetLinkSection({ user }: { user: AdminUser }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const issue = useMutation({
    mutationFn: (): Promise<PasswordResetLink> =>
      call(accountLifecycleEndpoints.passwordResetLink, { params: { id: user.id } }),
  });
  if (user.is_guest) return null;
  const link = issue.data;
  return (
    <section className="mt-6 flex flex-col gap-3 border-t border-border pt-4" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        Password reset
      </h3>
      {issue.error ? <Banner tone="danger">{errorMessage(issue.error)}</Banner> : null}
      {link ? (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-link`}>One-time reset link</Label>
          <div className="flex gap-2">
            <Input id={`${id}-link`} readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                void navigator.clipboard?.writeText(link.url).then(() => setCopied(true));
              }}
            >
              {copied ? "Copied" : "Copy"}
            </Button>
          </div>
          <p className="text-sm text-muted">
            Valid once, until {new Date(link.expires_at).toLocaleTimeString()}. Send it to the member
            privately.
          </p>
        </div>
      ) : (
        <Button type="button" variant="outline" loading={issue.isPending} onClick={() => issue.mutate()}>
          Create a password reset link
        </Button>
      )}
    </section>
  );
}
