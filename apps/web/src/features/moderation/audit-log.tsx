import type { AuditEntry } from "@hearth/contract";
import { History, RotateCw } from "lucide-react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { useAuditLog } from "./api.ts";
import { reviewDate } from "./labels.ts";

const actionNames: Record<string, string> = {
  "character.moderate": "Changed a chatbot",
  "character.delete": "Deleted a chatbot",
  "character.edit": "Edited a chatbot",
  "review.close": "Closed a review",
  "user.impersonate": "Viewed the site as a user",
  "user.impersonation_stop": "Stopped viewing as a user",
};

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** One change: each field's value before → after. */
function Changes({ entry }: { entry: AuditEntry }) {
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  if (keys.length === 0) return null;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
      {keys.map((key) => (
        <div key={key} className="contents">
          <dt className="text-muted">{key}</dt>
          <dd className="min-w-0 break-words">
            {entry.before && key in entry.before ? (
              <>
                <span className="text-muted line-through">{show(entry.before[key])}</span>
                {" → "}
              </>
            ) : null}
            {entry.after && key in entry.after ? show(entry.after[key]) : "—"}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Every administrator action, newest first: who, what, when, before and after. */
export function AuditLog() {
  const log = useAuditLog();
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  if (log.isPending) return <PageSpinner label="Loading the audit log" />;
  if (log.isError && !log.data) {
    return (
      <Banner
        tone="danger"
        title="Couldn't load the audit log"
        action={
          <Button size="sm" variant="outline" onClick={() => void log.refetch()}>
            <RotateCw aria-hidden />
            Try again
          </Button>
        }
      >
        {errorMessage(log.error)}
      </Banner>
    );
  }
  if (entries.length === 0) {
    return (
      <EmptyState icon={History} title="Nothing done yet" headingLevel={2}>
        Every action an administrator takes is listed here.
      </EmptyState>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <ol className="flex flex-col gap-3" aria-label="Audit log">
        {entries.map((entry) => (
          <li
            key={entry.id}
            className="flex flex-col gap-2 rounded-xl border border-border bg-surface p-4 text-sm"
          >
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className="font-medium">
                {actionNames[entry.action] ?? entry.action}
                <span className="font-normal text-muted">
                  {" "}
                  by @{entry.actor_username ?? "deleted account"}
                </span>
              </span>
              <time dateTime={entry.createdAt} className="text-xs text-muted">
                {reviewDate(entry.createdAt)}
              </time>
            </div>
            <span className="text-xs break-all text-muted">
              {entry.target_type} {entry.target_id}
            </span>
            <Changes entry={entry} />
          </li>
        ))}
      </ol>
      {log.hasNextPage ? (
        <Button
          variant="outline"
          className="self-center"
          loading={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          Load more
        </Button>
      ) : null}
    </div>
  );
}
