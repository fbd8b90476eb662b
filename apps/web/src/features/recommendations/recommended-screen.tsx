import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { RotateCw, Sparkles } from "lucide-react";
import { useState } from "react";
import { useAppConfig, useMe } from "../../lib/session.ts";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { tagsQuery } from "../characters/api.ts";
import { CharacterCard, CharacterGrid, CharacterGridSkeleton } from "../characters/character-card.tsx";
import { NsfwToggle } from "../characters/nsfw-toggle.tsx";
import { useEffectiveNsfw } from "../characters/preferences.ts";
import { TagFilterChips } from "../characters/tag-filter-chips.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
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
      <TagFilterChips
        chips={chips}
        selected={tags}
        onToggle={toggleTag}
        legend="Only bots with these tags"
        className="mb-4"
      />
      {list.isPending ? (
        <CharacterGridSkeleton count={8} />
      ) : list.isError && cards.length === 0 ? (
        <LoadErrorBanner
          title="Recommendations couldn't be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
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
