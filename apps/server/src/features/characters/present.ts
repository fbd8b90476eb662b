import type { Character, CharacterCard } from "@hearth/contract";
import { avatarUrl } from "../../lib/avatars.ts";
import type { FileStorage } from "../../ports/storage.ts";
import { characterBookForWire } from "../lorebooks/index.ts";
import type { CardRow } from "./list-queries.ts";
import { canSeeDefinition, isCreator, type MaybeViewer } from "./policy.ts";
import type { FoundCharacter } from "./queries.ts";

/** The full character as this viewer may see it: definition fields are null when withheld. */
export function toCharacter(found: FoundCharacter, viewer: MaybeViewer, storage: FileStorage): Character {
  const r = found.character;
  const shown = canSeeDefinition(viewer, r);
  const hidden = <T>(value: T): T | null => (shown ? value : null);
  return {
    id: r.id,
    character_id: r.id,
    name: r.name,
    title: r.title,
    greeting: r.greeting,
    alternate_greetings: r.alternateGreetings,
    persona: hidden(r.persona),
    personality: hidden(r.personality),
    scenario: hidden(r.scenario),
    dialogue: hidden(r.dialogue),
    system_prompt: hidden(r.systemPrompt),
    post_history_instructions: hidden(r.postHistoryInstructions),
    creator_notes: r.creatorNotes,
    tags: displayTags(r),
    avatar_url: avatarUrl(storage, r.avatarKey),
    avatar_is_nsfw: r.avatarIsNsfw,
    creator_user_id: r.creatorUserId,
    creator_username: found.creatorUsername,
    definition_visible: r.definitionVisible,
    definition_hidden: !shown,
    visibility: r.visibility,
    num_messages: r.numMessages,
    num_favorites: r.numFavorites,
    rating_score: r.ratingScore,
    token_count: r.tokenCount,
    lora_status: r.loraStatus,
    language: r.language,
    is_nsfw: r.isNsfw,
    moderationReport: {
      moderation_status: r.moderationStatus,
      reason_for_moderation: r.reasonForModeration,
      action_taken_description: r.actionTakenDescription,
    },
    reportsType: r.reportsType,
    // Whether a lorebook exists is not part of the definition's secret; its content is.
    has_lorebook: r.characterBook !== null,
    character_book: shown ? characterBookForWire(r.characterBook) : null,
    is_favorite: found.isFavorite,
    is_creator: isCreator(viewer, r),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export function toCard(row: CardRow, storage: FileStorage): CharacterCard {
  const r = row.character;
  return {
    id: r.id,
    name: r.name,
    title: r.title,
    avatar_url: avatarUrl(storage, r.avatarKey),
    avatar_is_nsfw: r.avatarIsNsfw,
    creator_user_id: r.creatorUserId,
    creator_username: row.creatorUsername,
    num_messages: r.numMessages,
    rating_score: r.ratingScore,
    tags: displayTags(r),
    visibility: r.visibility,
    is_nsfw: r.isNsfw,
    moderationReport: { moderation_status: r.moderationStatus },
    reportsType: r.reportsType,
    created_at: r.createdAt.toISOString(),
  };
}

/**
 * The tags as their creator wrote them. `tags` (lower-cased) is the truth, since other features
 * (accepted tag suggestions) change it alone; a tag without a written form shows lower-cased.
 */
export function displayTags(r: { tags: string[]; tagLabels?: string[] | null }): string[] {
  const labels = new Map((r.tagLabels ?? []).map((l) => [l.toLowerCase(), l]));
  return r.tags.map((t) => labels.get(t) ?? t);
}
