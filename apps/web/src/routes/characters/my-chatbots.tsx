import type { CharacterCard as Card } from "@hearth/contract";
import { characterBadge } from "@hearth/contract/labels";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Bot, Plus, Search, SearchX } from "lucide-react";
import { useEffect, useState } from "react";
import {
  fixRequiredQuery,
  type MineParams,
  type MineSort,
  myCharactersQuery,
  pagedCards,
} from "../../features/characters/api.ts";
import {
  CharacterCard,
  CharacterGrid,
  CharacterGridSkeleton,
} from "../../features/characters/character-card.tsx";
import { DeleteCharacterDialog } from "../../features/characters/delete-character.tsx";
import { syncFixDrafts, useDrafts } from "../../features/characters/drafts.ts";
import { DraftsCard } from "../../features/characters/drafts-card.tsx";
import { badgeTone } from "../../features/characters/format.ts";
import { FixRequiredNote } from "../../features/characters/moderation-banner.tsx";
import { OwnCardMenu } from "../../features/characters/own-card-menu.tsx";
import { LoadErrorBanner } from "../../features/shell/load-error-banner.tsx";
import { useMe } from "../../lib/session.ts";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";

type Filter = "all" | "public" | "hidden" | "private" | "review" | "action";

const filterLabels: Record<Filter, string> = {
  all: "All chatbots",
  public: "Public",
  hidden: "Unlisted",
  private: "Private",
  review: "In review",
  action: "Action needed",
};

/** Each filter as the server's list parameters. */
const filterParams: Record<Filter, Pick<MineParams, "visibility" | "moderation_status">> = {
  all: {},
  public: { visibility: "public" },
  hidden: { visibility: "hidden" },
  private: { visibility: "private" },
  review: { moderation_status: "pending" },
  action: { moderation_status: "fix_required" },
};

const sortLabels: Record<MineSort, string> = {
  status: "Status first",
  new: "Newest",
  name: "Name",
};

/** My Chatbots (chat-and-characters §2): the creator's own bots and the Drafts card. */
export default function MyChatbotsScreen() {
  const me = useMe();
  const userId = me?.id ?? "";
  const [searchText, setSearchText] = useState("");
  const search = useDebouncedValue(searchText.trim(), 300);
  const [filter, setFilter] = useState<Filter>("all");
  const [sort, setSort] = useState<MineSort>("status");
  const bots = useInfiniteQuery(myCharactersQuery({ q: search, sort, ...filterParams[filter] }));
  const fixRequired = useQuery(fixRequiredQuery);
  const drafts = useDrafts(userId);
  const [deleting, setDeleting] = useState<Card | null>(null);
  const canCreate = me?.permissions.includes("create_character") ?? false;

  useEffect(() => {
    if (fixRequired.data && userId) syncFixDrafts(userId, fixRequired.data.characters);
  }, [fixRequired.data, userId]);

  const shown = pagedCards(bots.data);
  const narrowed = search !== "" || filter !== "all";
  // Nothing at all (not just nothing matching): the first-run empty state, without the toolbar.
  const none = !narrowed && bots.isSuccess && shown.length === 0;

  const createButton = canCreate ? (
    <Button asChild>
      <Link to="/chatbot/create">
        <Plus aria-hidden />
        Create
      </Link>
    </Button>
  ) : null;

  return (
    <Page>
      <PageHeader
        title="My Chatbots"
        description="The chatbots you made, and how their review is going."
        actions={createButton}
      />

      {none || bots.isPending ? null : (
        <div className="mb-5 flex flex-col gap-2 sm:flex-row">
          <div className="relative flex-1">
            <Search
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted"
            />
            <Input
              type="search"
              aria-label="Search my chatbots"
              placeholder="Search by name, title or tag"
              className="pl-9"
              value={searchText}
              onChange={(event) => setSearchText(event.target.value)}
            />
          </div>
          <div className="grid grid-cols-2 gap-2 sm:flex">
            <Select
              aria-label="Filter"
              className="sm:w-44"
              value={filter}
              onChange={(e) => setFilter(e.target.value as Filter)}
            >
              {Object.entries(filterLabels).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
            <Select
              aria-label="Sort"
              className="sm:w-44"
              value={sort}
              onChange={(e) => setSort(e.target.value as MineSort)}
            >
              {Object.entries(sortLabels).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </Select>
          </div>
        </div>
      )}

      {bots.isPending ? (
        <CharacterGridSkeleton count={6} />
      ) : bots.isError ? (
        <LoadErrorBanner
          title="Your chatbots couldn't be loaded"
          error={bots.error}
          onRetry={() => void bots.refetch()}
        />
      ) : none ? (
        <div className="flex flex-col gap-5">
          <EmptyState
            icon={Bot}
            title="You haven't made a chatbot yet"
            headingLevel={2}
            action={createButton}
          >
            Write a character of your own, or import a character card you already have.
          </EmptyState>
          {drafts.length ? (
            <div className="max-w-60">
              <DraftsCard drafts={drafts} />
            </div>
          ) : null}
        </div>
      ) : (
        <CharacterGrid label="My chatbots">
          {narrowed ? null : (
            <li>
              <DraftsCard drafts={drafts} />
            </li>
          )}
          {shown.map((card) => {
            const badge = characterBadge(card.moderationReport.moderation_status, card.visibility);
            return (
              // A column, so a sent-back bot's note sits under its card instead of over the next row.
              <li key={card.id} className="flex flex-col">
                <div className="flex-1">
                  <CharacterCard
                    character={card}
                    showNsfw
                    badge={<Badge tone={badgeTone[badge]}>{badge}</Badge>}
                    actions={<OwnCardMenu character={card} onDelete={() => setDeleting(card)} />}
                  />
                </div>
                {card.moderationReport.moderation_status === "fix_required" ? (
                  <FixRequiredNote characterId={card.id} />
                ) : null}
              </li>
            );
          })}
        </CharacterGrid>
      )}
      {narrowed && bots.isSuccess && shown.length === 0 ? (
        <EmptyState icon={SearchX} title="No chatbots match" className="mt-5">
          Try another search or filter.
        </EmptyState>
      ) : null}
      {bots.hasNextPage ? (
        <div className="mt-5 flex justify-center">
          <Button
            variant="outline"
            loading={bots.isFetchingNextPage}
            onClick={() => void bots.fetchNextPage()}
          >
            Load More
          </Button>
        </div>
      ) : null}

      <DeleteCharacterDialog
        character={deleting}
        onOpenChange={(open) => {
          if (!open) setDeleting(null);
        }}
      />
    </Page>
  );
}
