import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Bot, RotateCw, Search, SearchX } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useAppConfig } from "../../lib/session.ts";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { type BrowseSort, browseQuery, pagedCards, tagsQuery } from "./api.ts";
import { CharacterCard, CharacterGrid, CharacterGridSkeleton } from "./character-card.tsx";
import { NsfwToggle } from "./nsfw-toggle.tsx";
import { useEffectiveNsfw } from "./preferences.ts";
import { TagFilterChips } from "./tag-filter-chips.tsx";

const sortLabels: Record<BrowseSort, string> = { popular: "Popular", new: "New", rating: "Top rated" };

/** Loads the next page when the sentinel scrolls near the viewport (the button stays as a fallback). */
function useAutoLoad(enabled: boolean, load: () => void) {
  const sentinel = useRef<HTMLDivElement>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const element = sentinel.current;
    if (!enabled || !element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadRef.current();
      },
      { rootMargin: "600px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [enabled]);
  return sentinel;
}

/** The browse grid of public characters: search, tags, sort, NSFW, endless pages. */
export function BrowseCharacters({ headingId }: { headingId: string }) {
  const { edition } = useAppConfig();
  const nsfw = useEffectiveNsfw();
  const [searchText, setSearchText] = useState("");
  const q = useDebouncedValue(searchText.trim(), 300);
  const [tags, setTags] = useState<string[]>([]);
  const [sort, setSort] = useState<BrowseSort>("popular");

  const browse = useInfiniteQuery(browseQuery({ q, tags, nsfw, sort }));
  const popularTags = useQuery(tagsQuery(nsfw));
  const cards = pagedCards(browse.data);
  const filtered = q !== "" || tags.length > 0;
  const canLoadMore = browse.hasNextPage && !browse.isFetchingNextPage && !browse.isError;
  const sentinel = useAutoLoad(canLoadMore, () => void browse.fetchNextPage());
  const refreshing = browse.isFetching && !browse.isFetchingNextPage && browse.isPlaceholderData;
  // The skip link's target: past the tag chips (up to 24 tab stops) to the first card.
  const resultsId = `${headingId}-results`;
  const results = useRef<HTMLDivElement>(null);

  const toggleTag = (tag: string) =>
    setTags((current) => (current.includes(tag) ? current.filter((t) => t !== tag) : [...current, tag]));
  const chips = [...new Set([...tags, ...(popularTags.data?.tags ?? []).map((t) => t.tag)])].slice(0, 24);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id={headingId} className="text-xl font-semibold tracking-tight">
          Characters
        </h2>
        <div className="flex items-center gap-2">
          <label htmlFor="browse-sort" className="sr-only">
            Sort characters
          </label>
          <Select
            id="browse-sort"
            className="w-auto"
            value={sort}
            onChange={(event) => setSort(event.target.value as BrowseSort)}
          >
            {Object.entries(sortLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
          {edition === "roleplay" ? <NsfwToggle /> : null}
        </div>
      </div>

      <div className="relative">
        <Search
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
        />
        <Input
          type="search"
          aria-label="Search characters"
          placeholder="Search by name, title or tag"
          className="h-11 pl-9"
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
        {refreshing ? (
          <Spinner
            size="sm"
            label="Searching"
            className="absolute top-1/2 right-3 -translate-y-1/2 text-muted"
          />
        ) : null}
      </div>

      {chips.length ? (
        <a
          href={`#${resultsId}`}
          onClick={(event) => {
            event.preventDefault();
            results.current?.focus();
          }}
          className="sr-only focus:not-sr-only focus:self-start focus:rounded-lg focus:bg-accent focus:px-3 focus:py-1.5 focus:text-sm focus:font-medium focus:text-accent-fg"
        >
          Skip to the characters
        </a>
      ) : null}
      <TagFilterChips chips={chips} selected={tags} onToggle={toggleTag} legend="Filter by tag" />

      <div id={resultsId} ref={results} tabIndex={-1} className="flex flex-col gap-4 outline-none">
        {browse.isPending ? (
          <CharacterGridSkeleton count={8} />
        ) : browse.isError && cards.length === 0 ? (
          <LoadErrorBanner
            title="Characters couldn't be loaded"
            error={browse.error}
            onRetry={() => void browse.refetch()}
          />
        ) : cards.length === 0 ? (
          filtered ? (
            <EmptyState icon={SearchX} title="No characters match">
              Try other words, or clear the tag filters.
              <div className="mt-3">
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    setSearchText("");
                    setTags([]);
                  }}
                >
                  Clear search
                </Button>
              </div>
            </EmptyState>
          ) : (
            <EmptyState icon={Bot} title="No characters yet">
              Nobody has published a character here so far. When characters arrive, they'll be listed here.
            </EmptyState>
          )
        ) : (
          <>
            <CharacterGrid label="Characters">
              {cards.map((card) => (
                <li key={card.id}>
                  <CharacterCard character={card} showNsfw={nsfw} />
                </li>
              ))}
            </CharacterGrid>
            <div ref={sentinel} className="flex flex-col items-center gap-3 py-2">
              {browse.isFetchingNextPage ? <Spinner label="Loading more characters" /> : null}
              {browse.isError ? (
                <Banner
                  tone="danger"
                  className="w-full"
                  action={
                    <Button variant="outline" size="sm" onClick={() => void browse.fetchNextPage()}>
                      <RotateCw aria-hidden />
                      Retry
                    </Button>
                  }
                >
                  {errorMessage(browse.error)}
                </Banner>
              ) : canLoadMore ? (
                <Button variant="outline" onClick={() => void browse.fetchNextPage()}>
                  Load More
                </Button>
              ) : null}
            </div>
          </>
        )}
      </div>
    </section>
  );
}
