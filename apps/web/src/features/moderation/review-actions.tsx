import type { AdminReview } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import {
  Baby,
  Check,
  CircleCheck,
  EllipsisVertical,
  EyeOff,
  Flame,
  Lock,
  Pencil,
  Trash2,
  Undo2,
} from "lucide-react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../../ui/dropdown-menu.tsx";
import { editHref } from "../characters/links.ts";
import type { ReviewAction } from "./api.ts";
import { isBotReview } from "./labels.ts";

interface ReviewActionsProps {
  review: AdminReview;
  /** Runs an action at once, with the text announced when it is done. */
  onAction: (action: ReviewAction, done: string) => void;
  onReject: (review: AdminReview) => void;
  onDelete: (review: AdminReview) => void;
}

/**
 * The review table's actions (accounts-billing-admin §2.2): approve or send back a bot waiting
 * for review, make private, mark NSFW, underage on or off, close, edit, delete. Each names the
 * review it answers, so that one is closed with the action taken.
 */
export function ReviewActions({ review, onAction, onReject, onDelete }: ReviewActionsProps) {
  const c = review.character;
  const name = c.name;
  const update = (change: Extract<ReviewAction, { kind: "update" }>["change"], done: string) =>
    onAction({ kind: "update", characterId: c.id, reviewId: review.id, change }, done);
  const waiting = c.moderation_status === "pending" || c.moderation_status === "rereview_required";
  const open = review.status === "open";
  const isPrivate = c.visibility === "private" || c.visibility === "permanently_private";

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label={`Actions for ${name}`}
        className="flex size-9 items-center justify-center rounded-lg text-muted transition hover:bg-surface-2 hover:text-fg data-[state=open]:bg-surface-2"
      >
        <EllipsisVertical aria-hidden className="size-4" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-52">
        {open && !c.is_deleted && isBotReview(review) && waiting ? (
          <>
            <DropdownMenuItem onSelect={() => update({ moderation_status: "approved" }, `${name} approved.`)}>
              <CircleCheck aria-hidden />
              Approve
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onReject(review)}>
              <Undo2 aria-hidden />
              Reject…
            </DropdownMenuItem>
            <DropdownMenuSeparator />
          </>
        ) : null}
        {open && !c.is_deleted && !isBotReview(review) ? (
          <>
            <DropdownMenuItem onSelect={() => onReject(review)}>
              <Undo2 aria-hidden />
              Ask for a fix…
            </DropdownMenuItem>
            <DropdownMenuSeparator />
          </>
        ) : null}
        {!c.is_deleted ? (
          <>
            {!isPrivate ? (
              <DropdownMenuItem
                onSelect={() => update({ visibility: "permanently_private" }, `${name} is private now.`)}
              >
                <Lock aria-hidden />
                Make private
              </DropdownMenuItem>
            ) : null}
            {!c.is_nsfw ? (
              <DropdownMenuItem onSelect={() => update({ is_nsfw: true }, `${name} is marked NSFW.`)}>
                <Flame aria-hidden />
                Mark NSFW
              </DropdownMenuItem>
            ) : null}
            {c.is_underage ? (
              <DropdownMenuItem onSelect={() => update({ is_underage: false }, `${name}: underage reset.`)}>
                <Baby aria-hidden />
                Reset underage
              </DropdownMenuItem>
            ) : (
              <DropdownMenuItem
                onSelect={() => update({ is_underage: true }, `${name} is marked underage and unlisted.`)}
              >
                <EyeOff aria-hidden />
                Mark underage
              </DropdownMenuItem>
            )}
            <DropdownMenuItem asChild>
              <Link to={editHref(c.id)}>
                <Pencil aria-hidden />
                Edit
              </Link>
            </DropdownMenuItem>
          </>
        ) : null}
        {open ? (
          <DropdownMenuItem
            onSelect={() =>
              onAction({ kind: "close", reviewId: review.id, action: "none" }, `Review of ${name} closed.`)
            }
          >
            <Check aria-hidden />
            Close report
          </DropdownMenuItem>
        ) : null}
        {!c.is_deleted ? (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => onDelete(review)} className="text-danger [&_svg]:text-danger">
              <Trash2 aria-hidden />
              Delete character…
            </DropdownMenuItem>
          </>
        ) : null}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
