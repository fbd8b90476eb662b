import { impersonationEndpoints } from "@hearth/contract";
import { useMutation } from "@tanstack/react-query";
import { Eye } from "lucide-react";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { useMe } from "../../lib/session.ts";
import { Button } from "../../ui/button.tsx";
import { useSessionActions } from "../auth/use-session-actions.ts";

/**
 * The impersonation banner (accounts-billing-admin §2.2 Layout): on every page while an
 * administrator views the site as a user, read-only; Stop viewing signs them back in as
 * themselves and returns to /admin/users.
 */
export function ImpersonationBanner() {
  const me = useMe();
  const { signedIn } = useSessionActions();
  const stop = useMutation({
    mutationFn: () => call(impersonationEndpoints.stop, {}),
    onSuccess: () => signedIn("/admin/users"),
    // The administrator's own session ran out meanwhile: they sign in again.
    onError: (error) => (isApiRequestError(error) && error.status === 401 ? signedIn("/sign-in") : undefined),
  });
  if (!me?.impersonated_by) return null;
  const who = me.username ? `@${me.username}` : me.name;
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-center gap-x-4 gap-y-2 border-b border-accent/40 bg-accent-soft px-4 py-2.5 text-center text-sm"
    >
      <p className="flex items-center gap-2">
        <Eye aria-hidden className="size-4 shrink-0" />
        <span>
          Viewing as <strong className="font-semibold">{who}</strong> (read-only)
        </span>
      </p>
      <Button size="sm" loading={stop.isPending || stop.isSuccess} onClick={() => stop.mutate()}>
        Stop viewing
      </Button>
      {stop.error ? (
        <p role="alert" className="w-full text-danger">
          {errorMessage(stop.error)}
        </p>
      ) : null}
    </div>
  );
}
