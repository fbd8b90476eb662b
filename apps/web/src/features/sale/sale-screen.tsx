import type { PaidRole } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Navigate, useNavigate } from "@tanstack/react-router";
import { Cake, CalendarDays, X } from "lucide-react";
import { useMemo, useState } from "react";
import { isApiRequestError } from "../../lib/api.ts";
import { Page } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { dismissSale, saleDismissed, saleQuery } from "./api.ts";
import { SaleCountdown } from "./countdown.tsx";
import { SaleGiftCard } from "./gift-card.tsx";
import { giftCards, type RevealState, reveal } from "./gift-cards.ts";
import { CreatorsShowcase, PopularCharacters, SaleSocials } from "./showcase.tsx";

/**
 * The birthday sale page (accounts-billing-admin §2.2 Sale page, §4, §9): only while a sale runs
 * and this browser has not dismissed it; otherwise the not-found page.
 */
export function SaleScreen() {
  const [dismissed] = useState(saleDismissed);
  const sale = useQuery({ ...saleQuery, enabled: !dismissed });
  const navigate = useNavigate();
  const [revealed, setRevealed] = useState<RevealState>(() => new Set());
  const [bursts, setBursts] = useState<Partial<Record<PaidRole, number>>>({});
  const cards = useMemo(() => giftCards(sale.data?.offers ?? []), [sale.data]);

  if (dismissed || (sale.isError && isApiRequestError(sale.error) && sale.error.status === 404)) {
    return <Navigate to="/not-found" replace />;
  }
  if (sale.isPending) return <PageSpinner />;
  if (sale.isError) {
    return (
      <Page width="medium">
        <h1 className="sr-only">Birthday sale</h1>
        <LoadErrorBanner
          title="The sale couldn't be loaded"
          error={sale.error}
          onRetry={() => void sale.refetch()}
        />
      </Page>
    );
  }

  const open = (role: PaidRole) => {
    const next = reveal(revealed, role);
    setRevealed(next.state);
    if (next.confetti) setBursts((b) => ({ ...b, [role]: (b[role] ?? 0) + 1 }));
  };
  const close = () => {
    dismissSale();
    void navigate({ to: "/", replace: true });
  };
  const { title, dates_label, ends_at, note } = sale.data;

  return (
    <Page width="wide" className="flex flex-col gap-10 sm:gap-14">
      <section
        aria-labelledby="sale-title"
        className="relative overflow-hidden rounded-3xl border border-border bg-gradient-to-br from-accent-soft via-surface to-surface px-5 py-8 text-center shadow-card sm:px-10 sm:py-12"
      >
        <button
          type="button"
          onClick={close}
          aria-label="Close the sale page"
          className="absolute top-3 right-3 rounded-full p-2 text-muted transition hover:bg-surface-2 hover:text-fg"
        >
          <X aria-hidden className="size-5" />
        </button>
        <div className="mx-auto flex max-w-2xl flex-col items-center gap-4">
          <span className="flex size-14 items-center justify-center rounded-full bg-accent text-accent-fg shadow-card">
            <Cake aria-hidden className="size-7" />
          </span>
          <p className="inline-flex items-center gap-2 rounded-full border border-border bg-surface px-3 py-1 text-sm font-semibold tracking-wider text-accent-text">
            <CalendarDays aria-hidden className="size-4" />
            {dates_label}
          </p>
          <h1 id="sale-title" className="text-3xl font-bold tracking-tight text-balance sm:text-5xl">
            {title}
          </h1>
          <p className="max-w-xl text-muted sm:text-lg">
            Thank you for growing with us. Open a gift below to reveal your birthday price.
          </p>
          <div className="mt-2 w-full max-w-md">
            <p className="mb-2 text-sm font-medium text-muted">The sale ends in</p>
            <SaleCountdown endsAt={Date.parse(ends_at)} />
          </div>
        </div>
      </section>

      <section aria-labelledby="sale-gifts" className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <h2 id="sale-gifts" className="text-xl font-semibold tracking-tight sm:text-2xl">
            Your birthday gifts
          </h2>
          <p className="text-muted">One click opens a gift. Pick the one you like best.</p>
        </div>
        <div className="grid gap-4 md:grid-cols-3">
          {cards.map((card) => (
            <SaleGiftCard
              key={card.role}
              card={card}
              revealed={revealed.has(card.role)}
              confetti={bursts[card.role] ?? 0}
              onReveal={() => open(card.role)}
            />
          ))}
        </div>
        <p className="text-sm text-muted">{note}</p>
      </section>

      <CreatorsShowcase />
      <PopularCharacters />
      <SaleSocials />
    </Page>
  );
}
