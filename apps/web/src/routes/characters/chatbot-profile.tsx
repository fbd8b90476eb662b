import type { Character } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { useEffect } from "react";
import { CharacterPicture } from "../../features/characters/character-avatar.tsx";
import { useEffectiveNsfw, useNewProfileFlag } from "../../features/characters/preferences.ts";
import {
  DefinitionSections,
  GreetingText,
  ProfileActions,
  ProfileSection,
  ProfileStats,
  TagList,
} from "../../features/characters/profile-parts.tsx";
import { CharacterUnavailable, isUnavailable, LoadFailed } from "../../features/characters/unavailable.tsx";
import { SuggestTags } from "../../features/ratings/suggest-tags.tsx";
import { profileLanguage, translatedProfileQuery } from "../../features/translations/api.ts";
import { pageTitle } from "../../lib/brand.ts";
import { useAppConfig } from "../../lib/session.ts";
import { Badge } from "../../ui/badge.tsx";
import { Page } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";

function CreatorLink({ character }: { character: Character }) {
  if (!character.creator_username) return <span className="text-muted">by an unnamed creator</span>;
  return (
    <Link
      to={`/creator/${character.creator_username}`}
      className="rounded font-medium text-accent-text hover:underline"
    >
      @{character.creator_username}
    </Link>
  );
}

function Heading({ character }: { character: Character }) {
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-2xl font-semibold tracking-tight break-words sm:text-3xl">{character.name}</h1>
        {character.is_nsfw ? <Badge tone="danger">NSFW</Badge> : null}
      </div>
      <p className="text-sm">
        <CreatorLink character={character} />
      </p>
      {character.title ? <p className="leading-relaxed text-muted">{character.title}</p> : null}
    </div>
  );
}

function Greeting({ character }: { character: Character }) {
  if (!character.greeting) return null;
  return (
    <ProfileSection title="Greeting">
      <GreetingText character={character} />
    </ProfileSection>
  );
}

/** The original profile: one column, picture beside the name. */
function ClassicProfile({ character, blurred }: { character: Character; blurred: boolean }) {
  return (
    <Page width="medium" className="flex flex-col gap-6">
      <div className="flex flex-col gap-5 sm:flex-row sm:items-start">
        <CharacterPicture
          name={character.name}
          src={character.avatar_url}
          blurred={blurred}
          className="aspect-square w-32 shrink-0 rounded-2xl text-4xl sm:w-44"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-4">
          <Heading character={character} />
          <TagList tags={character.tags} />
          <SuggestTags character={character} />
          <ProfileStats character={character} />
          <ProfileActions character={character} />
        </div>
      </div>
      <Greeting character={character} />
      <DefinitionSections character={character} />
    </Page>
  );
}

/** The new profile (flag new_profile, HEARTH_FLAG_NEW_PROFILE): a sticky side card and the text beside it. */
function NewProfile({ character, blurred }: { character: Character; blurred: boolean }) {
  return (
    <Page className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)] lg:items-start">
      <aside className="flex flex-col gap-4 rounded-2xl border border-border bg-surface p-4 lg:sticky lg:top-20">
        <CharacterPicture
          name={character.name}
          src={character.avatar_url}
          blurred={blurred}
          className="aspect-square w-full max-w-72 self-center rounded-xl text-5xl"
        />
        <Heading character={character} />
        {/* Token count is hidden in this version (chat-and-characters §2). */}
        <ProfileStats character={character} showTokens={false} />
        <ProfileActions character={character} stacked />
      </aside>
      <div className="flex min-w-0 flex-col gap-4">
        <TagList tags={character.tags} />
        <SuggestTags character={character} />
        <Greeting character={character} />
        <DefinitionSections character={character} />
      </div>
    </Page>
  );
}

export default function ChatbotProfileScreen() {
  const { characterId = "" } = useParams({ strict: false }) as { characterId?: string };
  // In the reader's language where the creator translated it (issue 17 item 5).
  const language = profileLanguage(window.location.search);
  const character = useQuery(translatedProfileQuery(characterId, language));
  const newProfile = useNewProfileFlag();
  const showNsfw = useEffectiveNsfw();
  const { brand } = useAppConfig();

  useEffect(() => {
    if (character.data) document.title = pageTitle(character.data.name, brand.name);
  }, [character.data, brand.name]);

  if (character.isPending) return <PageSpinner />;
  if (character.isError) {
    if (isUnavailable(character.error)) return <CharacterUnavailable />;
    return <LoadFailed error={character.error} onRetry={() => void character.refetch()} />;
  }
  const data = character.data;
  const blurred = data.avatar_is_nsfw && !showNsfw && !data.is_creator;
  return newProfile ? (
    <NewProfile character={data} blurred={blurred} />
  ) : (
    <ClassicProfile character={data} blurred={blurred} />
  );
}
