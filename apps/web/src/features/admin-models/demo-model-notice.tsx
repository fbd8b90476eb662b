import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Info, X } from "lucide-react";
import { useState } from "react";
import { useMe } from "../../lib/session.ts";
import { modelsQuery } from "../chat/api.ts";

const dismissedKey = "hearth.demoModelNotice.dismissed";

function readDismissed(): boolean {
  try {
    return localStorage.getItem(dismissedKey) === "1";
  } catch {
    return false;
  }
}

function storeDismissed(): void {
  try {
    localStorage.setItem(dismissedKey, "1");
  } catch {
    // No storage: it stays dismissed until the page reloads.
  }
}

/**
 * One line saying the server chats with the bundled tiny demo model, shown while it is the
 * default model. Admins get a link to the models page to download a real one.
 */
export function DemoModelNotice() {
  const me = useMe();
  const models = useQuery(modelsQuery);
  const [dismissed, setDismissed] = useState(readDismissed);
  const list = models.data;
  const isDemo = list?.models.find((model) => model.id === list.default_id)?.is_demo ?? false;
  if (!isDemo || dismissed) return null;
  const isAdmin = me?.permissions.includes("admin") ?? false;

  return (
    <div
      role="status"
      className="flex items-center gap-3 rounded-xl border border-border bg-surface px-3.5 py-2 text-sm"
    >
      <Info aria-hidden className="size-4 shrink-0 text-info" />
      <p className="min-w-0 flex-1 text-muted">
        You're chatting with Hearth's tiny demo model, so replies are simple.
        {isAdmin ? (
          <>
            {" "}
            <Link
              to="/admin/models"
              className="font-medium whitespace-nowrap text-accent-text underline-offset-4 hover:underline"
            >
              Get a real model
            </Link>
          </>
        ) : null}
      </p>
      <button
        type="button"
        aria-label="Dismiss the demo model notice"
        onClick={() => {
          storeDismissed();
          setDismissed(true);
        }}
        className="shrink-0 cursor-pointer rounded-md p-1.5 text-muted transition hover:bg-surface-2 hover:text-fg [&_svg]:size-4"
      >
        <X aria-hidden />
      </button>
    </div>
  );
}
