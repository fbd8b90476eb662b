import { Link } from "@tanstack/react-router";
import { Gift, X } from "lucide-react";
import { useState } from "react";
import { routeEntry } from "../../routes/table.ts";
import { BIRTHDAY_BANNER_KEY, useSite } from "../site/api.ts";

function dismissedBefore(): boolean {
  try {
    return localStorage.getItem(BIRTHDAY_BANNER_KEY) === "1";
  } catch {
    return false;
  }
}

/** The birthday header banner (§2.2 Sale page): only while a sale is configured, until dismissed here. */
export function BirthdayBanner() {
  const site = useSite();
  const [dismissed, setDismissed] = useState(dismissedBefore);
  if (!site?.sale_active || site.partner.enabled || dismissed) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(BIRTHDAY_BANNER_KEY, "1");
    } catch {
      // Private mode: hidden for this page view only.
    }
    setDismissed(true);
  };
  // The sale page belongs to billing; link to it only once it exists.
  const salePage = routeEntry("/sale")?.screen !== undefined;
  const text = "Subscribe for just $0.99";
  return (
    <section
      aria-label="Birthday sale"
      className="flex items-center justify-center gap-2 bg-accent px-3 py-1.5 text-sm text-accent-fg"
    >
      <Gift aria-hidden className="size-4 shrink-0" />
      {salePage ? (
        <Link to="/sale" className="font-medium underline underline-offset-2">
          {text}
        </Link>
      ) : (
        <span className="font-medium">{text}</span>
      )}
      <button
        type="button"
        onClick={dismiss}
        aria-label="Dismiss the sale banner"
        className="ml-2 rounded p-1 hover:bg-black/10"
      >
        <X aria-hidden className="size-4" />
      </button>
    </section>
  );
}
