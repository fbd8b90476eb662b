import type { AdminBackups } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { errorMessage } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Card, CardContent } from "../../ui/card.tsx";
import { formatBytes } from "../admin-models/format.ts";
import { adminBackupsQuery } from "./api.ts";

const when = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** "every 6 hours", "every day", "every 30 minutes". */
export function scheduleText(everyS: number | null): string {
  if (everyS === null) return "Scheduled backups are off (HEARTH_BACKUP_EVERY=off).";
  const units: [number, string][] = [
    [86_400, "day"],
    [3_600, "hour"],
    [60, "minute"],
  ];
  for (const [size, name] of units) {
    if (everyS % size === 0) {
      const n = everyS / size;
      return n === 1 ? `Every ${name}` : `Every ${n} ${name}s`;
    }
  }
  return `Every ${everyS} seconds`;
}

function Overview({ data }: { data: AdminBackups }) {
  const { last, schedule } = data;
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted">Last backup</dt>
          <dd className="font-medium">
            {last ? (
              <>
                <time dateTime={last.created_at}>{when.format(new Date(last.created_at))}</time>
                {" · "}
                {formatBytes(last.size_bytes)}
              </>
            ) : (
              "None yet"
            )}
          </dd>
        </div>
        <div>
          <dt className="text-muted">Schedule</dt>
          <dd className="font-medium">
            {schedule.every_s === null
              ? "Off"
              : `${scheduleText(schedule.every_s)}, keeping ${schedule.keep}`}
          </dd>
        </div>
        {schedule.next_at ? (
          <div>
            <dt className="text-muted">Next scheduled</dt>
            <dd className="font-medium">
              <time dateTime={schedule.next_at}>{when.format(new Date(schedule.next_at))}</time>
            </dd>
          </div>
        ) : null}
        <div className="min-w-0">
          <dt className="text-muted">Folder on the server</dt>
          <dd className="font-mono text-xs break-all">{schedule.dir}</dd>
        </div>
      </dl>
      {data.backups.length > 0 ? (
        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold">Kept in the folder</h3>
          <ul className="flex flex-col divide-y divide-border rounded-md border border-border text-sm">
            {data.backups.map((b) => (
              <li
                key={b.name}
                className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-3 py-2"
              >
                <span className="min-w-0 font-mono text-xs break-all">{b.name}</span>
                <span className="text-muted">{formatBytes(b.size_bytes)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="text-sm text-muted">
        Take one now with <code className="font-mono">hearth backup</code> on the server; bring one back with{" "}
        <code className="font-mono">hearth restore FILE</code> while Hearth is stopped. Backups never leave
        the server through this site.
      </p>
    </div>
  );
}

/** A small panel of the operator pages: when the last backup was taken, its size, the schedule. */
export function BackupsPanel() {
  const backups = useQuery(adminBackupsQuery);
  return (
    <section aria-labelledby="backups-heading">
      <Card>
        <CardContent className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h2 id="backups-heading" className="text-lg font-semibold">
              Backups
            </h2>
            {backups.data ? (
              backups.data.last ? (
                <Badge tone="success">Backed up</Badge>
              ) : (
                <Badge tone="warning">No backup yet</Badge>
              )
            ) : null}
          </div>
          {backups.isPending ? (
            <p className="text-sm text-muted">Loading backups…</p>
          ) : backups.data ? (
            <Overview data={backups.data} />
          ) : (
            <Banner tone="danger" title="Couldn't load the backups">
              {errorMessage(backups.error)}
            </Banner>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
