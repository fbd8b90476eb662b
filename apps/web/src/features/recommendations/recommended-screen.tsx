import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { RotateCw, Sparkles, X } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useAppConfig, useMe } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { tagsQuery } from "../characters/api.ts";
import { CharacterCard, CharacterGrid, CharacterGridSkeleton } from "../characters/character-card.tsx";
import { NsfwToggle } from "../characters/nsfw-toggle.tsx";
import { useEffectiveNsfw } from "../characters/preferences.ts";
import { recommendationsQuery } from "./api.ts";

/** Cards drawn at a time: 602 at once would be a long first paint on a phone. */
const STEP = 60;

/** Recommended Bots (chat-and-characters §2, §7): the viewer's ranked list in the browse grid. */
export function RecommendedScreen() {
  const me = useMe();
  const { edition } = useAppConfig();
  const nsfw = useEffectiveNsfw();
  const [tags, setTags] = useState<string[]>([]);
  const [shown, setShown] = useState(STEP);
  const list = useQuery(recommendationsQuery({ userId: me?.id ?? "signed-out", nsfw, tags }));
  const popularTags = useQuery(tagsQuery(nsfw));
  const cards = list.data?.characters ?? [];
  const chips = [...new Set([...tags, ...(popularTags.data?.tags ?? []).map((t) => t.tag)])].slice(0, 16);
  const toggleTag = (tag: string) => {
    setShown(STEP);
    setTags((current) => (current.includes(tag) ? current.filter((t) => t !== tag) : [...current, tag]));
  };

  return (
    <Page>
      <PageHeader
        title="Recommended Bots"
        description={
          list.data?.personalized
            ? "Picked for you from your chats, ratings and favorites."
            : "Popular and new chatbots. Chat, rate and favorite to make these yours."
        }
        actions={
          <>
            {edition === "roleplay" ? <NsfwToggle /> : null}
            <Button
              variant="outline"
              loading={list.isFetching}
              onClick={() => void list.refetch()}
              aria-label="Refresh recommendations"
            >
              {list.isFetching ? null : <RotateCw aria-hidden />}
              Refresh
            </Button>
          </>
        }
      />
      {chips.length ? (
        <fieldset className="-mx-4 mb-4 flex min-w-0 gap-1.5 overflow-x-auto border-0 px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0">
          <legend className="sr-only">Only bots with these tags</legend>
          {chips.map((tag) => {
            const active = tags.includes(tag);
            return (
              <button
                key={tag}
                type="button"
                aria-pressed={active}
                onClick={() => toggleTag(tag)}
                className={cn(
                  "inline-flex h-8 shrink-0 items-center gap-1 rounded-full border px-3 text-sm whitespace-nowrap transition",
                  active
                    ? "border-accent bg-accent-soft text-accent-text"
                    : "border-border bg-surface text-muted hover:border-border-strong hover:text-fg",
                )}
              >
                {tag}
                {active ? <X aria-hidden className="size-3.5" /> : null}
              </button>
            );
          })}
        </fieldset>
      ) : null}
      {list.isPending ? (
        <CharacterGridSkeleton count={8} />
      ) : list.isError && cards.length === 0 ? (
        <Banner
          tone="danger"
          title="Recommendations couldn't be loaded"
          action={
            <Button variant="outline" size="sm" onClick={() => void list.refetch()}>
              <RotateCw aria-hidden />
              Retry
            </Button>
          }
        >
          {errorMessage(list.error)}
        </Banner>
      ) : cards.length === 0 ? (
        <EmptyState
          icon={Sparkles}
          title={tags.length ? "Nothing to recommend with these tags" : "Nothing to recommend yet"}
          headingLevel={2}
          action={
            tags.length ? (
              <Button variant="outline" onClick={() => setTags([])}>
                Clear tags
              </Button>
            ) : (
              <Button asChild>
                <Link to="/">Browse characters</Link>
              </Button>
            )
          }
        >
          {tags.length
            ? "No chatbot you haven't met yet carries all of them."
            : "There are no public chatbots you haven't met yet. Check back when creators publish new ones."}
        </EmptyState>
      ) : (
        <>
          <CharacterGrid label="Recommended bots">
            {cards.slice(0, shown).map((card) => (
              <li key={card.id}>
                <CharacterCard character={card} showNsfw={nsfw} headingLevel={2} />
              </li>
            ))}
          </CharacterGrid>
          {cards.length > shown ? (
            <div className="mt-5 flex justify-center">
              <Button variant="outline" onClick={() => setShown((n) => n + STEP)}>
                Show more ({cards.length - shown} left)
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Page>
  );
}
