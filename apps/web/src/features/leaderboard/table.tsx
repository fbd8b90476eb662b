import type { LeaderboardHit } from "@hearth/contract";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { useState } from "react";
import { Avatar } from "../../ui/avatar.tsx";
import { scoreLabel } from "./api.ts";
import { CreatorName, LeafBadges, Movement } from "./parts.tsx";

type Column = "rank" | "creator" | "bots" | "score" | "movement";
type Direction = "ascending" | "descending";

const columns: { key: Column; label: string; numeric: boolean }[] = [
  { key: "rank", label: "Rank", numeric: true },
  { key: "creator", label: "Creator", numeric: false },
  { key: "bots", label: "Num Bots", numeric: true },
  { key: "score", label: "Score", numeric: true },
  { key: "movement", label: "M/M Rank", numeric: true },
];

const value = (hit: LeaderboardHit, column: Column): number | string => {
  switch (column) {
    case "rank":
      return hit.rank;
    case "creator":
      return (hit.creator_username ?? "").toLowerCase();
    case "bots":
      return hit.number_of_characters;
    case "score":
      return hit.score;
    case "movement":
      // Newcomers sort below any known movement.
      return hit.movement ?? Number.NEGATIVE_INFINITY;
  }
};

export function sortHits(hits: LeaderboardHit[], column: Column, direction: Direction): LeaderboardHit[] {
  const sign = direction === "ascending" ? 1 : -1;
  return [...hits].sort((a, b) => {
    const x = value(a, column);
    const y = value(b, column);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return order * sign || a.rank - b.rank;
  });
}

/** The ranked creators (§2.2): each column header sorts; Rank ascending to begin with. */
export function LeaderboardTable({ hits, caption }: { hits: LeaderboardHit[]; caption: string }) {
  const [sort, setSort] = useState<{ column: Column; direction: Direction }>({
    column: "rank",
    direction: "ascending",
  });
  const sorted = sortHits(hits, sort.column, sort.direction);
  const toggle = (column: Column) =>
    setSort((s) =>
      s.column === column
        ? { column, direction: s.direction === "ascending" ? "descending" : "ascending" }
        : // Rank and Creator read best from the top; figures from the largest.
          { column, direction: column === "rank" || column === "creator" ? "ascending" : "descending" },
    );
  return (
    <div className="overflow-x-auto rounded-xl border border-border">
      <table className="w-full min-w-[34rem] text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-surface-2 text-left">
          <tr>
            {columns.map((c) => {
              const active = sort.column === c.key;
              const Icon = active ? (sort.direction === "ascending" ? ArrowUp : ArrowDown) : ArrowUpDown;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={active ? sort.direction : undefined}
                  className={c.numeric ? "px-3 py-2 text-right" : "px-3 py-2"}
                >
                  <button
                    type="button"
                    onClick={() => toggle(c.key)}
                    className="inline-flex items-center gap-1 rounded font-semibold hover:text-accent-text"
                  >
                    {c.label}
                    <Icon aria-hidden className={active ? "size-3.5" : "size-3.5 text-muted"} />
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.map((hit) => (
            <tr key={hit.id} className="border-t border-border" data-leaderboard-row={hit.rank}>
              <td className="px-3 py-2 text-right font-semibold tabular-nums">{hit.rank}</td>
              <td className="px-3 py-2">
                <span className="flex min-w-0 items-center gap-2">
                  <Avatar name={hit.creator_username ?? "?"} src={hit.avatar_url} size="sm" />
                  <CreatorName hit={hit} />
                  <LeafBadges rank={hit.rank} />
                </span>
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{hit.number_of_characters}</td>
              <td className="px-3 py-2 text-right tabular-nums">{scoreLabel(hit.score)}</td>
              <td className="px-3 py-2 text-right">
                <Movement movement={hit.movement} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
