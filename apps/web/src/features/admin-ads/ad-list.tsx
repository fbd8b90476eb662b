import type { AdminAd } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { AdForm } from "./ad-form.tsx";
import { adStatsQuery, useDeleteAd } from "./api.ts";

const percent = (ctr: number) => `${(ctr * 100).toFixed(1)}%`;

/** An ad's views, clicks and click-through rate by day, the last 30 days. */
function AdDays({ ad }: { ad: AdminAd }) {
  const stats = useQuery(adStatsQuery(ad.id));
  if (stats.isPending) return <p className="text-sm text-muted">Loading figures…</p>;
  if (!stats.data) return <Banner tone="danger">{errorMessage(stats.error)}</Banner>;
  if (stats.data.days.length === 0)
    return <p className="text-sm text-muted">No views in the last 30 days.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">{`${ad.name} by day`}</caption>
        <thead>
          <tr className="text-left text-muted">
            <th scope="col" className="py-1 pr-4 font-medium">
              Day (UTC)
            </th>
            <th scope="col" className="py-1 pr-4 font-medium">
              Views
            </th>
            <th scope="col" className="py-1 pr-4 font-medium">
              Clicks
            </th>
            <th scope="col" className="py-1 font-medium">
              CTR
            </th>
          </tr>
        </thead>
        <tbody>
          {stats.data.days.map((d) => (
            <tr key={d.day} className="border-t border-border">
              <td className="py-1 pr-4">{d.day}</td>
              <td className="py-1 pr-4">{d.views}</td>
              <td className="py-1 pr-4">{d.clicks}</td>
              <td className="py-1">{percent(d.ctr)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function AdItem({ ad, onNotice }: { ad: AdminAd; onNotice: (text: string) => void }) {
  const [open, setOpen] = useState<"days" | "edit" | null>(null);
  const remove = useDeleteAd();
  return (
    <li className="flex flex-col gap-3 p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold">{ad.name}</span>
            {ad.active ? <Badge tone="accent">Active</Badge> : <Badge>Paused</Badge>}
            <Badge>{ad.nsfw === "sfw" ? "SFW bots" : ad.nsfw === "nsfw" ? "NSFW bots" : "Any bot"}</Badge>
          </p>
          <p className="text-sm break-words">{ad.text}</p>
          <p className="text-sm text-muted break-all">
            {ad.link_url} · {ad.tags.length ? `tags: ${ad.tags.join(", ")}` : "every tag"}
          </p>
          <p className="text-sm" data-ad-totals>
            {ad.views} views · {ad.clicks} clicks · CTR {percent(ad.ctr)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            aria-expanded={open === "days"}
            onClick={() => setOpen(open === "days" ? null : "days")}
          >
            By day
          </Button>
          <Button
            variant="outline"
            size="sm"
            aria-expanded={open === "edit"}
            onClick={() => setOpen(open === "edit" ? null : "edit")}
          >
            Edit
          </Button>
          <Button
            variant="outline"
            size="sm"
            aria-label={`Delete ${ad.name}`}
            loading={remove.isPending}
            onClick={() => remove.mutate(ad.id, { onSuccess: () => onNotice(`Ad ${ad.name} deleted.`) })}
          >
            Delete
          </Button>
        </div>
      </div>
      {open === "days" ? <AdDays ad={ad} /> : null}
      {open === "edit" ? (
        <AdForm
          ad={ad}
          onDone={(name) => {
            setOpen(null);
            onNotice(`Ad ${name} saved.`);
          }}
        />
      ) : null}
    </li>
  );
}
