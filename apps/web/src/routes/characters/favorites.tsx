import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Heart } from "lucide-react";
import { favoritesQuery, pagedCards } from "../../features/characters/api.ts";
import {
  CharacterCard,
  CharacterGrid,
  CharacterGridSkeleton,
} from "../../features/characters/character-card.tsx";
import { useEffectiveNsfw } from "../../features/characters/preferences.ts";
import { LoadErrorBanner } from "../../features/shell/load-error-banner.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";

/** Favorite Bots: the chatbots this user favorited. */
export default function FavoritesScreen() {
  const favorites = useInfiniteQuery(favoritesQuery);
  const cards = pagedCards(favorites.data);
  const showNsfw = useEffectiveNsfw();

  return (
    <Page>
      <PageHeader title="Favorite Bots" description="Chatbots you marked as a favorite." />
      {favorites.isPending ? (
        <CharacterGridSkeleton count={6} />
      ) : favorites.isError ? (
        <LoadErrorBanner
          title="Your favorites couldn't be loaded"
          error={favorites.error}
          onRetry={() => void favorites.refetch()}
        />
      ) : cards.length === 0 ? (
        <EmptyState
          icon={Heart}
          title="No favorites yet"
          headingLevel={2}
          action={
            <Button asChild>
              <Link to="/">Browse characters</Link>
            </Button>
          }
        >
          Open a chatbot's profile and press Favorite to keep it here.
        </EmptyState>
      ) : (
        <CharacterGrid label="Favorite bots">
          {cards.map((card) => (
            <li key={card.id}>
              <CharacterCard character={card} showNsfw={showNsfw} />
            </li>
          ))}
        </CharacterGrid>
      )}
      {favorites.hasNextPage ? (
        <div className="mt-5 flex justify-center">
          <Button
            variant="outline"
            loading={favorites.isFetchingNextPage}
            onClick={() => void favorites.fetchNextPage()}
          >
            Load More
          </Button>
        </div>
      ) : null}
    </Page>
  );
}
