import type { CharacterCard as Card } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { MessageCircle } from "lucide-react";
import type { ReactNode } from "react";
import { Badge } from "../../ui/badge.tsx";
import { cn } from "../../ui/cn.ts";
import { CharacterPicture } from "./character-avatar.tsx";
import { compactCount, exactCount } from "./format.ts";

interface CharacterCardProps {
  character: Card;
  /** Show NSFW avatars unblurred (the viewer's NSFW setting). */
  showNsfw: boolean;
  /** A badge over the picture's corner (My Chatbots' status). */
  badge?: ReactNode;
  /** Controls in the card's top-right corner (a menu); they sit above the card's link. */
  actions?: ReactNode;
  /** Where the card leads; the profile by default. */
  href?: string;
  headingLevel?: 2 | 3;
}

/**
 * A character in a browse grid: picture, name, title, tags, message count and creator. The whole
 * card is one link (the name's link stretched over it); the creator link and actions sit above it.
 */
export function CharacterCard({
  character,
  showNsfw,
  badge,
  actions,
  href,
  headingLevel = 3,
}: CharacterCardProps) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const blurred = character.avatar_is_nsfw && !showNsfw;
  return (
    <article
      className={cn(
        "group relative flex h-full flex-col overflow-hidden rounded-xl border border-border bg-surface transition",
        "hover:border-border-strong hover:shadow-card focus-within:border-accent",
        // The card is one link: when the keyboard is on it, the whole card gets the focus ring.
        "has-[[data-card-link]:focus-visible]:outline-2 has-[[data-card-link]:focus-visible]:outline-offset-2",
        "has-[[data-card-link]:focus-visible]:outline-ring",
      )}
    >
      <div className="relative">
        <CharacterPicture
          name={character.name}
          src={character.avatar_url}
          blurred={blurred}
          className="aspect-[4/5] w-full text-3xl transition group-hover:brightness-105"
        />
        <div className="pointer-events-none absolute inset-x-2 top-2 flex items-start justify-between gap-2">
          <span className="flex flex-wrap gap-1 [&>*]:rounded-full [&>*]:bg-bg/85 [&>*]:backdrop-blur">
            {badge ? <span>{badge}</span> : null}
            {character.is_nsfw ? (
              <span>
                <Badge tone="danger">NSFW</Badge>
              </span>
            ) : null}
          </span>
        </div>
      </div>
      <div className="flex flex-1 flex-col gap-1.5 p-3">
        <Heading className="line-clamp-2 text-sm leading-snug font-semibold break-words sm:text-base">
          <Link
            to={href ?? `/chatbot/${character.id}`}
            data-card-link
            className="rounded outline-none after:absolute after:inset-0 after:rounded-xl after:content-['']"
          >
            {character.name}
          </Link>
        </Heading>
        {character.title ? (
          <p className="line-clamp-2 text-xs leading-relaxed text-muted sm:text-sm sm:leading-normal">
            {character.title}
          </p>
        ) : null}
        {character.tags.length ? (
          <ul aria-label="Tags" className="flex flex-wrap gap-1">
            {character.tags.slice(0, 3).map((tag) => (
              <li
                key={tag}
                className="max-w-full truncate rounded-md bg-surface-2 px-1.5 py-0.5 text-xs text-muted"
              >
                {tag}
              </li>
            ))}
            {character.tags.length > 3 ? (
              <li className="px-1 py-0.5 text-xs text-muted">+{character.tags.length - 3}</li>
            ) : null}
          </ul>
        ) : null}
        <div className="mt-auto flex items-center gap-2 pt-1 text-xs text-muted">
          <span
            className="inline-flex shrink-0 items-center gap-1"
            title={`${exactCount(character.num_messages)} messages`}
          >
            <MessageCircle aria-hidden className="size-3.5" />
            <span aria-hidden>{compactCount(character.num_messages)}</span>
            <span className="sr-only">{exactCount(character.num_messages)} messages</span>
          </span>
          {character.creator_username ? (
            <Link
              to={`/creator/${character.creator_username}`}
              className="relative z-10 min-w-0 truncate rounded hover:text-fg hover:underline"
            >
              @{character.creator_username}
            </Link>
          ) : null}
        </div>
      </div>
      {actions ? <div className="absolute top-2 right-2 z-10">{actions}</div> : null}
    </article>
  );
}

/** The grid every character list uses: cards at least 160 px wide (spec §9), gaps 12 / 20. */
export function CharacterGrid({ children, label }: { children: ReactNode; label?: string }) {
  return (
    <ul
      aria-label={label}
      className="grid grid-cols-[repeat(auto-fill,minmax(160px,1fr))] gap-3 sm:grid-cols-[repeat(auto-fill,minmax(180px,1fr))] sm:gap-5"
    >
      {children}
    </ul>
  );
}

/** Placeholder cards while a list loads: the grid keeps its shape, so nothing jumps. */
export function CharacterGridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <div aria-busy="true" aria-live="polite">
      <span className="sr-only">Loading characters</span>
      <div
        aria-hidden
        className="grid grid-cols-[repeat(auto-fill,minmax(160px,1fr))] gap-3 sm:grid-cols-[repeat(auto-fill,minmax(180px,1fr))] sm:gap-5"
      >
        {Array.from({ length: count }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity but their place
          <div key={index} className="overflow-hidden rounded-xl border border-border bg-surface">
            <div className="aspect-[4/5] animate-pulse bg-surface-2" />
            <div className="flex flex-col gap-2 p-3">
              <div className="h-4 w-2/3 animate-pulse rounded bg-surface-2" />
              <div className="h-3 w-full animate-pulse rounded bg-surface-2" />
              <div className="h-3 w-1/2 animate-pulse rounded bg-surface-2" />
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
