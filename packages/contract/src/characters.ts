import { z } from "zod";
import { queryInt32 } from "./integers.ts";
import { characterLimits as limits } from "./labels.ts";
import { lorebookBody } from "./lorebooks.ts";
import { promptCost } from "./prompt.ts";

/** Visibility values (chat-and-characters §4). Share is offered for public or hidden bots. */
export const visibility = z.enum(["public", "private", "permanently_private", "hidden"]);
export type Visibility = z.infer<typeof visibility>;

/** Review states; `approved` is Hearth's name for "reviewed, nothing to do". */
export const moderationStatus = z.enum(["approved", "pending", "rereview_required", "fix_required"]);
export type ModerationStatus = z.infer<typeof moderationStatus>;

export const loraStatus = z.enum(["not_trained", "pending", "ready", "failed"]);

export const moderationReport = z.object({
  moderation_status: moderationStatus,
  reason_for_moderation: z.array(z.string()),
  action_taken_description: z.string().nullable(),
});
export type ModerationReport = z.infer<typeof moderationReport>;

// Field limits live in labels.ts (`characterLimits`, free of zod, for the web's forms); the
// schemas below read them from there, so a limit is written once.
export const MAX_TAGS = limits.tags;
// Tags keep the case their creator wrote ("White Hair"); search and filters compare them lower-cased.
const tag = z
  .string()
  .trim()
  .min(1)
  .max(limits.tag)
  .regex(/^[\p{L}\p{N} _&'+-]+$/u, "Tags use letters, digits, spaces and - _ & ' +");

/** Character lists (browse, My Chatbots, favorites): a page's size unless asked, and the most. */
export const CHARACTER_PAGE_SIZE = 24;
export const CHARACTER_PAGE_MAX = 60;
/** Tag chips (GET /api/characters/tags): how many unless asked, and the most. */
export const TAG_LIST_SIZE = 30;
export const TAG_LIST_MAX = 100;
/** The longest search text a list accepts. */
export const SEARCH_MAX = 100;
/** The longest name a creator page's path may carry (usernames are shorter; this only caps input). */
export const CREATOR_NAME_MAX = 64;

/** Limits sized for real cards (long personas and example dialogues), not for abuse. */
const text = (max: number) => z.string().max(max, `At most ${max} characters`);

export const characterFields = z.object({
  name: z.string().trim().min(1, "A name is required").max(limits.name),
  title: text(limits.title).default(""),
  greeting: text(limits.greeting).default(""),
  persona: text(limits.persona).default(""),
  /** A card's personality summary (Tavern `personality`), kept apart from the description. */
  personality: text(limits.personality).default(""),
  scenario: text(limits.scenario).default(""),
  dialogue: text(limits.dialogue).default(""),
  tags: z.array(tag).max(MAX_TAGS, `You can keep only ${MAX_TAGS} tags !`).default([]),
  avatar_is_nsfw: z.boolean().default(false),
  definition_visible: z.boolean().default(false),
  visibility: visibility.default("private"),
  language: z.string().trim().min(limits.language_min).max(limits.language_max).default("en"),
  is_nsfw: z.boolean().default(false),
  alternate_greetings: z.array(text(limits.alternate_greeting)).max(limits.alternate_greetings).default([]),
  system_prompt: text(limits.system_prompt).default(""),
  post_history_instructions: text(limits.post_history_instructions).default(""),
  creator_notes: text(limits.creator_notes).default(""),
  /** The character's own lorebook (part of its definition); null for none. */
  character_book: lorebookBody.nullable().default(null),
});

/** POST /api/characters?switch=T1 */
export const characterCreate = characterFields;
export type CharacterCreate = z.input<typeof characterCreate>;

type FieldShape = typeof characterFields.shape;
type WithoutDefault<T> = T extends z.ZodDefault<infer Inner> ? Inner : T;

/**
 * PUT/PATCH /api/characters/{id}?switch=T1: only the changed fields. The create defaults are
 * removed first: a default inside an optional field would fill every absent field and reset it.
 */
export const characterUpdate = z
  .object(
    Object.fromEntries(
      Object.entries(characterFields.shape).map(([k, v]) => [
        k,
        (v instanceof z.ZodDefault ? v.unwrap() : v).optional(),
      ]),
    ) as { [K in keyof FieldShape]: z.ZodOptional<WithoutDefault<FieldShape[K]>> },
  )
  .refine((v) => Object.values(v).some((x) => x !== undefined), "Nothing to change");
export type CharacterUpdate = z.input<typeof characterUpdate>;

/** GET /api/characters/{id}: the profile. Definition fields are null when hidden from the viewer. */
export const character = z.object({
  id: z.string(),
  character_id: z.string(),
  name: z.string(),
  title: z.string(),
  greeting: z.string(),
  alternate_greetings: z.array(z.string()),
  persona: z.string().nullable(),
  personality: z.string().nullable(),
  scenario: z.string().nullable(),
  dialogue: z.string().nullable(),
  system_prompt: z.string().nullable(),
  post_history_instructions: z.string().nullable(),
  creator_notes: z.string(),
  tags: z.array(z.string()),
  avatar_url: z.string().nullable(),
  avatar_is_nsfw: z.boolean(),
  creator_user_id: z.string(),
  creator_username: z.string().nullable(),
  definition_visible: z.boolean(),
  /** True when persona/scenario/dialogue are withheld from this viewer. */
  definition_hidden: z.boolean(),
  visibility,
  num_messages: z.number().int(),
  num_favorites: z.number().int(),
  rating_score: z.number().min(0).max(1).nullable(),
  token_count: z.number().int(),
  lora_status: loraStatus,
  language: z.string(),
  is_nsfw: z.boolean(),
  moderationReport,
  reportsType: z.array(z.string()),
  has_lorebook: z.boolean(),
  /** The character's lorebook; null when it has none or the definition is withheld from this viewer. */
  character_book: lorebookBody.nullable(),
  is_favorite: z.boolean(),
  is_creator: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Character = z.infer<typeof character>;

/** A character in lists and grids (accounts-billing-admin §3, "Character card"). */
export const characterCard = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string(),
  avatar_url: z.string().nullable(),
  avatar_is_nsfw: z.boolean(),
  creator_user_id: z.string(),
  creator_username: z.string().nullable(),
  num_messages: z.number().int(),
  rating_score: z.number().nullable(),
  tags: z.array(z.string()),
  visibility,
  is_nsfw: z.boolean(),
  moderationReport: z.object({ moderation_status: moderationStatus }),
  reportsType: z.array(z.string()),
  created_at: z.string(),
});
export type CharacterCard = z.infer<typeof characterCard>;

export const characterPage = z.object({
  characters: z.array(characterCard),
  next_cursor: z.string().nullable(),
});
export type CharacterPage = z.infer<typeof characterPage>;

export const characterSort = z.enum(["popular", "new", "rating"]);
export type CharacterSort = z.infer<typeof characterSort>;

const pageLimit = queryInt32(1, CHARACTER_PAGE_MAX).default(CHARACTER_PAGE_SIZE);
const pageCursor = z.string().max(400).optional();

/** GET /api/characters: browse and search public bots. */
export const characterBrowseQuery = z.object({
  q: z.string().trim().max(SEARCH_MAX).optional(),
  tags: z
    .string()
    .max(400)
    .optional()
    .transform((s) =>
      s
        ? s
            .split(",")
            .map((t) => t.trim().toLowerCase())
            .filter(Boolean)
            .slice(0, MAX_TAGS)
        : [],
    ),
  nsfw: z.stringbool().default(false),
  sort: characterSort.default("popular"),
  limit: pageLimit,
  cursor: z.string().max(200).optional(),
});

export const creatorProfile = z.object({
  creator: z.object({
    id: z.string(),
    username: z.string(),
    name: z.string(),
    avatar_url: z.string().nullable(),
  }),
  characters: z.array(characterCard),
});
export type CreatorProfile = z.infer<typeof creatorProfile>;

/** GET /api/creators/{username}: matched case-insensitively. */
export const creatorParams = z.object({ username: z.string().min(1).max(CREATOR_NAME_MAX) });

/** POST /api/characters/import: what was taken from the file and what was not. */
export const importReport = z.object({
  /** The container and the card version really read from it. */
  format: z.enum(["png_v1", "png_v2", "png_v3", "json_v1", "json_v2", "json_v3", "charx"]),
  imported: z.array(z.string()),
  ignored: z.array(z.string()),
  warnings: z.array(z.string()),
});
export type ImportReport = z.infer<typeof importReport>;

export const importResult = z.object({ character, report: importReport, prompt_cost: promptCost });
export type ImportResult = z.infer<typeof importResult>;

/** GET /api/characters/{id}/export: the card file's container. */
export const cardFileFormat = z.enum(["png", "json", "charx"]);
export type CardFileFormat = z.infer<typeof cardFileFormat>;
export const exportFormat = z.object({ format: cardFileFormat.default("png") });

/** POST /api/characters/prompt-cost: the editor's fields as they stand, to price before saving. */
export const promptCostRequest = characterFields
  .pick({
    name: true,
    greeting: true,
    persona: true,
    personality: true,
    scenario: true,
    dialogue: true,
    system_prompt: true,
    post_history_instructions: true,
  })
  .extend({ name: z.string().trim().max(limits.name).default("") });
export type PromptCostRequest = z.input<typeof promptCostRequest>;

/** GET/PUT/PATCH /api/characters/{id}: `switch` (the spec sends T1) asks for the creator's edit view. */
export const characterGetQuery = z.object({
  switch: z.string().max(16).optional(),
  /** The profile in this language where the creator made a translation (issue 17); else as written. */
  language: z.string().trim().max(16).optional(),
});

/** GET /api/users/characters?switch=T1: the viewer's own bots (My Chatbots). */
export const myCharactersSort = z.enum(["status", "updated", "new", "popular", "name"]);
export type MyCharactersSort = z.infer<typeof myCharactersSort>;
export const myCharactersQuery = z.object({
  switch: z.string().max(16).optional(),
  q: z.string().trim().max(SEARCH_MAX).optional(),
  visibility: visibility.optional(),
  moderation_status: moderationStatus.optional(),
  /** `status` (default): fix_required first, then rereview_required and pending, then by last edit. */
  sort: myCharactersSort.default("status"),
  limit: pageLimit,
  cursor: pageCursor,
});

/** GET /api/users/favorites: newest favorite first. */
export const favoritesQuery = z.object({ limit: pageLimit, cursor: pageCursor });

/** POST and DELETE /api/characters/{id}/favorite. */
export const favoriteState = z.object({ is_favorite: z.boolean(), num_favorites: z.number().int() });
export type FavoriteState = z.infer<typeof favoriteState>;

/** GET /api/creators/{username}. */
export const creatorQuery = z.object({ nsfw: z.stringbool().default(false) });

/** GET /api/characters/tags: the most used tags of listed bots, for the browse page's chips. */
export const characterTagsQuery = z.object({
  nsfw: z.stringbool().default(false),
  limit: queryInt32(1, TAG_LIST_MAX).default(TAG_LIST_SIZE),
});
export const characterTags = z.object({
  tags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
});
export type CharacterTags = z.infer<typeof characterTags>;

/** PUT /api/admin/characters/{id}/moderation: a moderator completes a review (admins only). */
export const characterModerationUpdate = z.object({
  moderation_status: moderationStatus,
  reason_for_moderation: z.array(z.string().trim().min(1).max(500)).max(20).optional(),
  action_taken_description: z.string().trim().max(2000).nullable().optional(),
});
export type CharacterModerationUpdate = z.infer<typeof characterModerationUpdate>;
