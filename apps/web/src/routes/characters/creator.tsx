import { useQuery } from "@tanstack/react-query";
import { useParams } from "@tanstack/react-router";
import { Bot, UserX } from "lucide-react";
import { useEffect } from "react";
import { creatorQuery } from "../../features/characters/api.ts";
import {
  CharacterCard,
  CharacterGrid,
  CharacterGridSkeleton,
} from "../../features/characters/character-card.tsx";
import { useEffectiveNsfw } from "../../features/characters/preferences.ts";
import { isUnavailable, LoadFailed } from "../../features/characters/unavailable.tsx";
import { pageTitle } from "../../lib/brand.ts";
import { useAppConfig } from "../../lib/session.ts";
import { Avatar } from "../../ui/avatar.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page } from "../../ui/page.tsx";

/** /creator/{username}: a creator's public chatbots. */
export default function CreatorScreen() {
  const { username = "" } = useParams({ strict: false }) as { username?: string };
  const showNsfw = useEffectiveNsfw();
  const { brand } = useAppConfig();
  const creator = useQuery(creatorQuery(username, showNsfw));

  useEffect(() => {
    document.title = pageTitle(`@${username}`, brand.name);
  }, [username, brand.name]);

  if (creator.isError && !isUnavailable(creator.error)) {
    return <LoadFailed error={creator.error} onRetry={() => void creator.refetch()} />;
  }
  if (creator.isError) {
    return (
      <Page width="medium">
        <EmptyState icon={UserX} title="This creator doesn't exist" headingLevel={2}>
          There's nobody called @{username} here. The name may be mistyped, or the account was removed.
        </EmptyState>
      </Page>
    );
  }
  const profile = creator.data;
  return (
    <Page>
      <div className="mb-6 flex items-center gap-4 sm:mb-8">
        <Avatar name={profile?.creator.name ?? username} src={profile?.creator.avatar_url} size="lg" />
        <div className="flex min-w-0 flex-col">
          <h1 className="truncate text-2xl font-semibold tracking-tight sm:text-3xl">
            {profile?.creator.name ?? `@${username}`}
          </h1>
          <p className="text-muted">
            @{username}
            {profile
              ? ` · ${profile.characters.length} ${profile.characters.length === 1 ? "chatbot" : "chatbots"}`
              : ""}
          </p>
        </div>
      </div>
      {!profile ? (
        <CharacterGridSkeleton count={6} />
      ) : profile.characters.length === 0 ? (
        <EmptyState icon={Bot} title="No chatbots yet" headingLevel={2}>
          @{username} hasn't published a chatbot so far.
        </EmptyState>
      ) : (
        <CharacterGrid label={`Chatbots by @${username}`}>
          {profile.characters.map((card) => (
            <li key={card.id}>
              <CharacterCard character={card} showNsfw={showNsfw} />
            </li>
          ))}
        </CharacterGrid>
      )}
    </Page>
  );
}
