import { type LeaderboardType, leaderboardTypeTitle } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { Trophy } from "lucide-react";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { leaderboardQuery, monthLabel } from "../features/leaderboard/api.ts";
import { HowItWorks, Podium } from "../features/leaderboard/parts.tsx";
import { LeaderboardTable } from "../features/leaderboard/table.tsx";
import { LoadErrorBanner } from "../features/shell/load-error-banner.tsx";
import { Button } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import { EmptyState } from "../ui/empty-state.tsx";
import { Select } from "../ui/input.tsx";
import { Label } from "../ui/label.tsx";
import { Page, PageHeader } from "../ui/page.tsx";
import { PageSpinner } from "../ui/spinner.tsx";

const TYPES: LeaderboardType[] = ["new_bots", "all_bots"];

/** New Bots / All Bots as tabs: arrow keys move between them (WAI-ARIA tabs pattern). */
function CategoryTabs({ type, onChange }: { type: LeaderboardType; onChange: (t: LeaderboardType) => void }) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    event.preventDefault();
    const next = TYPES[(TYPES.indexOf(type) + 1) % TYPES.length] as LeaderboardType;
    onChange(next);
    refs.current[TYPES.indexOf(next)]?.focus();
  };
  return (
    <div role="tablist" aria-label="Category" className="inline-flex rounded-lg bg-surface-2 p-1">
      {TYPES.map((t, i) => (
        <button
          key={t}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={`leaderboard-tab-${t}`}
          aria-selected={t === type}
          aria-controls="leaderboard-panel"
          tabIndex={t === type ? 0 : -1}
          onKeyDown={onKey}
          onClick={() => onChange(t)}
          className={cn(
            "rounded-md px-4 py-1.5 text-sm font-medium transition-colors",
            t === type ? "bg-surface text-fg shadow-sm" : "text-muted hover:text-fg",
          )}
        >
          {leaderboardTypeTitle[t]}
        </button>
      ))}
    </div>
  );
}

/**
 * Creators Leaderboard (accounts-billing-admin §2.2), open to everyone. The month lives in the
 * address by the §4 rules: a month that is not available gives the newest and the query goes;
 * choosing the newest removes it; another month sets it.
 */
export default function LeaderboardScreen() {
  const search = useSearch({ strict: false }) as { date?: unknown; type?: unknown };
  const navigate = useNavigate();
  const type: LeaderboardType = search.type === "all_bots" ? "all_bots" : "new_bots";
  const asked = typeof search.date === "string" ? search.date : undefined;
  const [page, setPage] = useState(1);
  const board = useQuery(leaderboardQuery(type, asked, page));
  const data = board.data;

  const go = (next: { type?: LeaderboardType; date?: string | undefined }, replace = false) => {
    const nextType = next.type ?? type;
    const nextDate = "date" in next ? next.date : asked;
    setPage(1);
    void navigate({
      to: "/creators/leaderboard",
      search: {
        ...(nextType === "all_bots" ? { type: nextType } : {}),
        ...(nextDate ? { date: nextDate } : {}),
      },
      replace,
    });
  };

  // §4: an unavailable month (the server answered the newest instead), or the newest named
  // outright, leaves the address without a date.
  const newest = data?.dates[0];
  const dropDate = Boolean(
    asked && data && !board.isPlaceholderData && (data.date !== asked || asked === newest),
  );
  useEffect(() => {
    if (!dropDate) return;
    void navigate({
      to: "/creators/leaderboard",
      search: type === "all_bots" ? { type } : {},
      replace: true,
    });
  }, [dropDate, navigate, type]);

  return (
    <Page>
      <PageHeader
        title="Creators Leaderboard"
        description={data?.date ? monthLabel(data.date) : "The month's top chatbot creators"}
      />
      <div className="flex flex-col gap-6">
        <HowItWorks />
        {board.isError && !data ? (
          <LoadErrorBanner
            title="The leaderboard couldn't be loaded"
            error={board.error}
            onRetry={() => void board.refetch()}
          />
        ) : !data ? (
          <PageSpinner label="Loading the leaderboard" />
        ) : !data.date ? (
          <EmptyState icon={Trophy} title="No leaderboard yet" headingLevel={2}>
            Rankings appear once public chatbots get messages, ratings or favourites this month.
          </EmptyState>
        ) : (
          <>
            <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
              <CategoryTabs type={type} onChange={(t) => go({ type: t })} />
              <div className="flex flex-col gap-1.5">
                <Label htmlFor="leaderboard-month">Month</Label>
                <Select
                  id="leaderboard-month"
                  className="sm:w-56"
                  value={data.date}
                  onChange={(event) => {
                    const value = event.target.value;
                    go({ date: value === data.dates[0] ? undefined : value });
                  }}
                >
                  {data.dates.map((d) => (
                    <option key={d} value={d}>
                      {monthLabel(d)}
                    </option>
                  ))}
                </Select>
              </div>
            </div>
            <div
              id="leaderboard-panel"
              role="tabpanel"
              aria-labelledby={`leaderboard-tab-${type}`}
              className="flex flex-col gap-6"
            >
              {data.hits.length === 0 ? (
                <EmptyState icon={Trophy} title="Nobody ranked here yet" headingLevel={2}>
                  No creator scored in {leaderboardTypeTitle[type]} for {monthLabel(data.date)}.
                </EmptyState>
              ) : (
                <>
                  {data.page === 1 ? <Podium hits={data.hits} /> : null}
                  <LeaderboardTable
                    hits={data.hits}
                    caption={`${leaderboardTypeTitle[type]}, ${monthLabel(data.date)}`}
                  />
                  {data.pages > 1 ? (
                    <nav aria-label="Pages" className="flex items-center justify-center gap-3">
                      <Button variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                        Previous
                      </Button>
                      <span className="text-sm text-muted">
                        Page {data.page} of {data.pages}
                      </span>
                      <Button
                        variant="outline"
                        disabled={page >= data.pages}
                        onClick={() => setPage(page + 1)}
                      >
                        Next
                      </Button>
                    </nav>
                  ) : null}
                </>
              )}
            </div>
          </>
        )}
      </div>
    </Page>
  );
}
