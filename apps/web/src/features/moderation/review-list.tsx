import type { AdminReview } from "@hearth/contract";
import { characterBadge } from "@hearth/contract/labels";
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Avatar } from "../../ui/avatar.tsx";
import { Badge } from "../../ui/badge.tsx";
import { badgeTone } from "../characters/format.ts";
import { profileHref } from "../characters/links.ts";
import { actionLabel, kindLabel, kindTone, reviewDate } from "./labels.ts";

interface ReviewListProps {
  reviews: AdminReview[];
  actions: (review: AdminReview) => ReactNode;
}

function CharacterCell({ review }: { review: AdminReview }) {
  const c = review.character;
  const badge = characterBadge(c.moderation_status, c.visibility);
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Avatar name={c.name} src={c.avatar_url} size="sm" />
      <div className="flex min-w-0 flex-col gap-1">
        {c.is_deleted ? (
          <span className="truncate font-medium">{c.name}</span>
        ) : (
          <Link to={profileHref(c.id)} className="truncate font-medium hover:underline">
            {c.name}
          </Link>
        )}
        {c.creator_username ? (
          <span className="truncate text-xs text-muted">@{c.creator_username}</span>
        ) : null}
        <span className="flex flex-wrap gap-1">
          {c.is_deleted ? (
            <Badge tone="danger">DELETED</Badge>
          ) : (
            <Badge tone={badgeTone[badge]}>{badge}</Badge>
          )}
          {c.is_nsfw ? <Badge tone="danger">NSFW</Badge> : null}
          {c.is_underage ? <Badge tone="danger">UNDERAGE</Badge> : null}
        </span>
      </div>
    </div>
  );
}

function IssueCell({ review }: { review: AdminReview }) {
  return (
    <div className="flex flex-col gap-1">
      <span>
        <Badge tone={kindTone[review.kind]}>{kindLabel[review.kind]}</Badge>
      </span>
      <span className="font-medium">{review.issue}</span>
      {review.reporter_username ? (
        <span className="text-xs text-muted">by @{review.reporter_username}</span>
      ) : null}
    </div>
  );
}

function DetailsCell({ review }: { review: AdminReview }) {
  return (
    <div className="flex flex-col gap-1.5 break-words">
      {review.details ? <p>{review.details}</p> : <p className="text-muted">No details</p>}
      {review.message_excerpt !== null ? (
        <blockquote className="line-clamp-4 border-l-2 border-border-strong pl-2 text-muted">
          {review.message_excerpt}
        </blockquote>
      ) : null}
    </div>
  );
}

function Outcome({ review }: { review: AdminReview }) {
  if (review.status === "open") return <Badge tone="warning">Open</Badge>;
  return (
    <span className="flex flex-col gap-0.5">
      <Badge tone="success">{review.action_taken ? actionLabel[review.action_taken] : "Closed"}</Badge>
      {review.closed_by_username ? (
        <span className="text-xs text-muted">by @{review.closed_by_username}</span>
      ) : null}
    </span>
  );
}

const th = "px-3 py-3 font-medium";

/** A table on wide screens; stacked cards on phones, where a table would scroll sideways. */
export function ReviewList({ reviews, actions }: ReviewListProps) {
  return (
    <>
      <div className="hidden overflow-hidden rounded-xl border border-border bg-surface lg:block">
        <table className="w-full table-fixed text-left text-sm">
          <caption className="sr-only">Reviews</caption>
          <thead className="border-b border-border bg-surface-2/50 text-xs tracking-wider text-muted uppercase">
            <tr>
              <th scope="col" className={`${th} w-56`}>
                Character
              </th>
              <th scope="col" className={`${th} w-44`}>
                Issue
              </th>
              <th scope="col" className={`${th} w-36`}>
                Resolution
              </th>
              <th scope="col" className={th}>
                Details
              </th>
              <th scope="col" className={`${th} w-32`}>
                Date
              </th>
              <th scope="col" className={`${th} w-28`}>
                Status
              </th>
              <th scope="col" className="w-14 px-3 py-3">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {reviews.map((review) => (
              <tr key={review.id} className="align-top">
                <td className="px-3 py-3">
                  <CharacterCell review={review} />
                </td>
                <td className="px-3 py-3">
                  <IssueCell review={review} />
                </td>
                <td className="px-3 py-3 break-words">
                  {review.resolution || <span className="text-muted">—</span>}
                </td>
                <td className="px-3 py-3">
                  <DetailsCell review={review} />
                </td>
                <td className="px-3 py-3 text-muted">{reviewDate(review.createdAt)}</td>
                <td className="px-3 py-3">
                  <Outcome review={review} />
                </td>
                <td className="px-3 py-3 text-right">{actions(review)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ul className="flex flex-col gap-3 lg:hidden" aria-label="Reviews">
        {reviews.map((review) => (
          <li
            key={review.id}
            className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 text-sm"
          >
            <div className="flex items-start justify-between gap-3">
              <CharacterCell review={review} />
              {actions(review)}
            </div>
            <IssueCell review={review} />
            {review.resolution ? (
              <p>
                <span className="text-muted">Expected: </span>
                {review.resolution}
              </p>
            ) : null}
            <DetailsCell review={review} />
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-xs text-muted">{reviewDate(review.createdAt)}</span>
              <Outcome review={review} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
