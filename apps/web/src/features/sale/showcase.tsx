import { useQueries, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { MessageCircle, Trophy } from "lucide-react";
import type { ReactNode } from "react";
import { Avatar } from "../../ui/avatar.tsx";
import { buttonClass } from "../../ui/button.tsx";
import { CharacterPicture } from "../characters/character-avatar.tsx";
import { profileHref } from "../characters/links.ts";
import { leaderboardQuery, monthLabel, scoreLabel } from "../leaderboard/api.ts";
import { useSite } from "../site/api.ts";
import { POPULAR_CATEGORIES, popularQuery } from "./api.ts";

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat("en-US");

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4">
      <h2 id={id} className="text-xl font-semibold tracking-tight sm:text-2xl">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** §2.2's creators showcase: the newest month's top three of the leaderboard, and Learn More. */
export function CreatorsShowcase() {
  const board = useQuery(leaderboardQuery("all_bots", undefined, 1));
  const top = board.data?.hits.slice(0, 3) ?? [];
  return (
    <Section id="sale-creators" title="Creators showcase">
      <div className="flex flex-col gap-4 rounded-2xl border border-border bg-surface p-5 sm:flex-row sm:items-center sm:p-6">
        <div className="flex flex-1 flex-col gap-2">
          <p className="inline-flex items-center gap-2 font-medium">
            <Trophy aria-hidden className="size-5 text-accent-text" />
            {board.data?.date ? `${monthLabel(board.data.date)} results` : "Monthly results"}
          </p>
          <p className="text-sm text-muted">
            Each month the top creators win a free month of our highest tiers.
          </p>
          {top.length ? (
            <ol className="mt-1 flex flex-col gap-2">
              {top.map((hit) => (
                <li key={hit.id} className="flex items-center gap-3">
                  <span className="w-6 text-center font-bold tabular-nums text-accent-text">{hit.rank}</span>
                  <Avatar name={hit.creator_username ?? "Creator"} src={hit.avatar_url} size="sm" />
                  <span className="min-w-0 flex-1 truncate">@{hit.creator_username ?? "deleted"}</span>
                  <span className="text-sm text-muted tabular-nums">{scoreLabel(hit.score)} points</span>
                </li>
              ))}
            </ol>
          ) : null}
        </div>
        <Link
          to="/creators/leaderboard"
          className={buttonClass("outline", "md", "self-start sm:self-center")}
        >
          Learn More
        </Link>
      </div>
    </Section>
  );
}

/** The most messaged listed bot of each category, with its real message count. */
export function PopularCharacters() {
  const results = useQueries({ queries: POPULAR_CATEGORIES.map((c) => popularQuery(c.tags)) });
  const picks = POPULAR_CATEGORIES.flatMap((category, i) => {
    const top = results[i]?.data?.characters[0];
    // "Most popular" of bots nobody has talked to yet would say nothing.
    return top && top.num_messages > 0 ? [{ label: category.label, character: top }] : [];
  });
  if (!picks.length) return null;
  return (
    <Section id="sale-popular" title="Most popular characters">
      <ul className="grid gap-3 sm:grid-cols-3">
        {picks.map(({ label, character }) => (
          <li key={label}>
            <Link
              to={profileHref(character.id)}
              className="flex items-center gap-3 rounded-2xl border border-border bg-surface p-3 transition hover:border-border-strong hover:bg-surface-2"
            >
              <CharacterPicture
                name={character.name}
                src={character.avatar_url}
                blurred={character.avatar_is_nsfw}
                className="size-14 shrink-0 rounded-xl"
              />
              <span className="flex min-w-0 flex-col">
                <span className="text-xs font-semibold tracking-wider text-accent-text uppercase">
                  {label}
                </span>
                <span className="truncate font-medium">{character.name}</span>
                <span
                  className="inline-flex items-center gap-1 text-sm text-muted"
                  title={`${whole.format(character.num_messages)} messages`}
                >
                  <MessageCircle aria-hidden className="size-3.5" />
                  {compact.format(character.num_messages)} messages
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** The community's links from the site configuration (chat community, microblog, forum). */
export function SaleSocials() {
  const socials = useSite()?.footer.socials ?? [];
  if (!socials.length) return null;
  return (
    <Section id="sale-socials" title="Celebrate with us">
      <ul className="flex flex-wrap gap-2">
        {socials.map((link) => (
          <li key={link.url}>
            <a href={link.url} rel="noreferrer" target="_blank" className={buttonClass("outline")}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </Section>
  );
}
