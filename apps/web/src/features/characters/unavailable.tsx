import { Link, useRouter } from "@tanstack/react-router";
import { Lock, type LucideIcon, ShieldX } from "lucide-react";
import { isApiRequestError } from "../../lib/api.ts";
import { Button } from "../../ui/button.tsx";
import { Page } from "../../ui/page.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";

function StateScreen({ icon: Icon, title, text }: { icon: LucideIcon; title: string; text: string }) {
  const router = useRouter();
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-5 px-4 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-accent-soft text-accent-text">
        <Icon aria-hidden className="size-7" />
      </span>
      <div className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
        <p className="max-w-md text-muted">{text}</p>
      </div>
      <div className="flex flex-wrap justify-center gap-2">
        <Button asChild>
          <Link to="/">Browse characters</Link>
        </Button>
        <Button variant="outline" onClick={() => router.history.back()}>
          Go Back
        </Button>
      </div>
    </div>
  );
}

/** A 404 or invalidAccess answer for a character. */
export function CharacterUnavailable() {
  return (
    <StateScreen
      icon={Lock}
      title="This character is private or was deleted"
      text="Its creator may have made it private, or it no longer exists. There are plenty of others to meet."
    />
  );
}

/** The editor refused to someone who isn't the creator (chat-and-characters §2). */
export function NotAllowed() {
  return (
    <StateScreen
      icon={ShieldX}
      title="You are not allowed to access this page"
      text="Only the creator of a chatbot can edit it."
    />
  );
}

/**
 * Whether an error means "no such character for you" rather than a failure. A link whose id is
 * not a character id at all (the server refuses it with 400 on `id`) names no character either.
 */
export function isUnavailable(error: unknown): boolean {
  if (!isApiRequestError(error)) return false;
  if (error.status === 400 && error.issues?.some((issue) => issue.path === "id")) return true;
  return error.status === 404 || error.code === "invalidAccess" || error.code === "notFound";
}

export function isForbidden(error: unknown): boolean {
  return isApiRequestError(error) && error.status === 403 && error.code !== "invalidAccess";
}

/** Any other load failure, with a retry. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Page width="medium">
      <LoadErrorBanner title="This page couldn't be loaded" error={error} onRetry={onRetry} />
    </Page>
  );
}
