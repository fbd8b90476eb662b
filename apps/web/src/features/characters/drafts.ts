import type { Character, CharacterCard, CharacterCreate, LorebookBody } from "@hearth/contract";
import { readStored, useStored, writeStored } from "./local-store.ts";

/**
 * Every field of the create/edit form, as the contract's create payload names them. The lorebook
 * is held whole (every default filled in), as its editor works on it.
 */
export type CharacterFormValues = Omit<Required<CharacterCreate>, "character_book"> & {
  character_book: LorebookBody | null;
};

/**
 * A chatbot form kept on this device (chat-and-characters §3: "drafts keyed by character id").
 * `create` drafts are bots not created yet (/chatbot/create/{id}); `fix` drafts follow a bot
 * whose review asks for a fix (their id is the bot's id; /chatbot/edit/{id}), synced from My
 * Chatbots, with the creator's unsaved edits once there are any.
 */
export interface CharacterDraft {
  id: string;
  kind: "create" | "fix";
  /** null for a synced fix draft nobody has edited yet: the editor loads the bot itself. */
  values: CharacterFormValues | null;
  /** Shown on draft cards when values are null. */
  name: string;
  avatar_url: string | null;
  updated_at: string;
}

type DraftMap = Record<string, CharacterDraft>;

export const emptyCharacterValues: CharacterFormValues = {
  name: "",
  title: "",
  greeting: "",
  persona: "",
  personality: "",
  scenario: "",
  dialogue: "",
  tags: [],
  avatar_is_nsfw: false,
  definition_visible: false,
  visibility: "private",
  language: "en",
  is_nsfw: false,
  alternate_greetings: [],
  system_prompt: "",
  post_history_instructions: "",
  creator_notes: "",
  character_book: null,
};

/** The form's values for a saved character (the creator's edit view has every field). */
export function valuesFromCharacter(character: Character): CharacterFormValues {
  return {
    name: character.name,
    title: character.title,
    greeting: character.greeting,
    persona: character.persona ?? "",
    personality: character.personality ?? "",
    scenario: character.scenario ?? "",
    dialogue: character.dialogue ?? "",
    tags: character.tags,
    avatar_is_nsfw: character.avatar_is_nsfw,
    definition_visible: character.definition_visible,
    visibility: character.visibility,
    language: character.language,
    is_nsfw: character.is_nsfw,
    alternate_greetings: character.alternate_greetings,
    system_prompt: character.system_prompt ?? "",
    post_history_instructions: character.post_history_instructions ?? "",
    creator_notes: character.creator_notes,
    character_book: character.character_book,
  };
}

/** Drafts are per account, so two people sharing a browser don't see each other's. */
export const draftsKey = (userId: string) => `hearth.drafts.${userId}`;

export function newDraftId(): string {
  const random =
    typeof crypto !== "undefined" && "randomUUID" in crypto
      ? crypto.randomUUID().replace(/-/g, "")
      : Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  return `draft-${random.slice(0, 12)}`;
}

function all(userId: string): DraftMap {
  const stored = readStored<DraftMap>(draftsKey(userId), {});
  return stored && typeof stored === "object" ? stored : {};
}

/** A draft, its values completed with today's fields (a draft saved before a field existed lacks it). */
export function getDraft(userId: string, id: string): CharacterDraft | null {
  const draft = all(userId)[id];
  if (!draft) return null;
  return draft.values ? { ...draft, values: { ...emptyCharacterValues, ...draft.values } } : draft;
}

export function saveDraft(userId: string, draft: Omit<CharacterDraft, "updated_at">) {
  writeStored(draftsKey(userId), {
    ...all(userId),
    [draft.id]: { ...draft, updated_at: new Date().toISOString() },
  });
}

export function deleteDraft(userId: string, id: string) {
  const drafts = all(userId);
  if (!(id in drafts)) return;
  delete drafts[id];
  writeStored(draftsKey(userId), drafts);
}

/** Newest first. */
export function sortedDrafts(drafts: DraftMap): CharacterDraft[] {
  return Object.values(drafts).sort((a, b) => b.updated_at.localeCompare(a.updated_at));
}

export function useDrafts(userId: string): CharacterDraft[] {
  const [drafts] = useStored<DraftMap>(draftsKey(userId), {});
  return sortedDrafts(drafts ?? {});
}

/**
 * Keeps fix drafts in step with the creator's bots (§4: "Drafts are synced for fix_required
 * bots"): one per bot that needs a fix, and none for bots that no longer do or are gone.
 */
export function syncFixDrafts(userId: string, bots: CharacterCard[]) {
  const drafts = all(userId);
  let changed = false;
  const needsFix = new Map(
    bots.filter((bot) => bot.moderationReport.moderation_status === "fix_required").map((b) => [b.id, b]),
  );
  for (const draft of Object.values(drafts)) {
    if (draft.kind === "fix" && !needsFix.has(draft.id)) {
      delete drafts[draft.id];
      changed = true;
    }
  }
  for (const bot of needsFix.values()) {
    const existing = drafts[bot.id];
    if (!existing || existing.name !== bot.name || existing.avatar_url !== bot.avatar_url) {
      drafts[bot.id] = {
        id: bot.id,
        kind: "fix",
        values: existing?.values ?? null,
        name: bot.name,
        avatar_url: bot.avatar_url,
        updated_at: existing?.updated_at ?? new Date().toISOString(),
      };
      changed = true;
    }
  }
  if (changed) writeStored(draftsKey(userId), drafts);
}

/** Where a draft card leads (spec: the editor when moderation requires a fix, else create). */
export function draftHref(draft: CharacterDraft): string {
  return draft.kind === "fix" ? `/chatbot/edit/${draft.id}` : `/chatbot/create/${draft.id}`;
}

export function draftTitle(draft: CharacterDraft): string {
  return (draft.values?.name ?? draft.name).trim() || "Untitled draft";
}
