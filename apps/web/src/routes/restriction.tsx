import { LogOut, OctagonX, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { DeleteAccountDialog } from "../features/account-deletion/delete-account-dialog.tsx";
import { DownloadAccount } from "../features/account-transfer/your-data-section.tsx";
import { useSessionActions } from "../features/auth/use-session-actions.ts";
import { BrandMark } from "../features/shell/brand-mark.tsx";
import { ThemeToggle } from "../features/shell/theme-toggle.tsx";
import { pageTitle } from "../lib/brand.ts";
import { useAppConfig } from "../lib/session.ts";
import { Button } from "../ui/button.tsx";

const copy = {
  complete: {
    title: "Your account has been suspended",
    text: "The moderators of {brand} have suspended this account, so none of the site is available to it.",
  },
  temporary: {
    title: "Your account is temporarily restricted",
    text: "The moderators of {brand} have paused this account for a while. Please come back later.",
  },
} as const;

/**
 * The only page a restricted account sees, on every path. The account's data stays its own: it
 * may still download everything it owns and delete itself, the two things the server lets through.
 */
export function RestrictionScreen({ restriction }: { restriction: "complete" | "temporary" }) {
  const { brand } = useAppConfig();
  const { signOut } = useSessionActions();
  const [signingOut, setSigningOut] = useState(false);
  const { title, text } = copy[restriction];

  useEffect(() => {
    document.title = pageTitle(title, brand.name);
  }, [title, brand.name]);

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex h-14 items-center justify-between border-b border-border px-4">
        <BrandMark />
        <ThemeToggle />
      </header>
      <main className="flex flex-1 flex-col items-center justify-center gap-5 px-4 py-16 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-danger-soft text-danger">
          <OctagonX aria-hidden className="size-7" />
        </span>
        <div className="flex flex-col gap-2">
          <h1 className="text-3xl font-semibold tracking-tight">{title}</h1>
          <p className="max-w-md text-muted">{text.replace("{brand}", brand.name)}</p>
        </div>
        <Button
          variant="outline"
          loading={signingOut}
          onClick={() => {
            setSigningOut(true);
            signOut().finally(() => setSigningOut(false));
          }}
        >
          <LogOut aria-hidden />
          Sign out
        </Button>
        <YourData />
      </main>
    </div>
  );
}

/** Downloading the account's archive and deleting the account, which a restriction never takes away. */
function YourData() {
  const [deleting, setDeleting] = useState(false);
  return (
    <section aria-labelledby="your-data-heading" className="mt-6 flex max-w-md flex-col items-center gap-3">
      <h2 id="your-data-heading" className="text-lg font-semibold">
        Your data
      </h2>
      <p className="text-sm text-muted">
        You can still download everything this account owns, or delete the account.
      </p>
      <DownloadAccount className="" />
      <Button variant="outline" onClick={() => setDeleting(true)}>
        <Trash2 aria-hidden />
        Delete my account
      </Button>
      <DeleteAccountDialog open={deleting} onOpenChange={setDeleting} />
    </section>
  );
}
