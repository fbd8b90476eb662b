import type { BlockedCreator } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { creatorLabel } from "./api.ts";

/**
 * The five colours the initial circles cycle through (accounts-billing-admin §2.2), each a text
 * and background pair with at least 4.5:1 contrast in both themes.
 */
const CIRCLE_COLOURS = [
  "bg-accent-soft text-accent-text",
  "bg-info-soft text-info",
  "bg-success-soft text-success",
  "bg-warning-soft text-warning",
  "bg-danger-soft text-danger",
] as const;

export const circleColour = (index: number) => CIRCLE_COLOURS[index % CIRCLE_COLOURS.length];

/** The Blocked creators list: an initial circle, the name, @username to their page, Unblock. */
export function BlockedCreatorList({
  creators,
  onUnblock,
}: {
  creators: BlockedCreator[];
  onUnblock: (creator: BlockedCreator) => void;
}) {
  return (
    <ul
      aria-label="Blocked creators"
      className="flex flex-col divide-y divide-border rounded-xl border border-border bg-surface"
    >
      {creators.map((creator, index) => {
        const shown = creator.name?.trim() || creator.username || "?";
        return (
          <li
            key={creator.id}
            className="flex items-center gap-3 px-4 py-3"
            data-blocked-creator={creator.username ?? creator.id}
          >
            <span
              aria-hidden
              data-circle-colour={index % CIRCLE_COLOURS.length}
              className={cn(
                "flex size-10 shrink-0 items-center justify-center rounded-full text-base font-semibold uppercase",
                circleColour(index),
              )}
            >
              {Array.from(shown)[0] ?? "?"}
            </span>
            <div className="flex min-w-0 flex-1 flex-col">
              <span className="truncate font-medium">{shown}</span>
              {creator.username ? (
                <Link
                  to={`/creator/${encodeURIComponent(creator.username)}`}
                  className="truncate text-sm text-accent-text underline-offset-2 hover:underline"
                >
                  @{creator.username}
                </Link>
              ) : (
                <span className="text-sm text-muted">No creator page</span>
              )}
            </div>
            <Button
              variant="outline"
              size="sm"
              aria-label={`Unblock ${creatorLabel(creator)}`}
              onClick={() => onUnblock(creator)}
            >
              Unblock
            </Button>
          </li>
        );
      })}
    </ul>
  );
}
