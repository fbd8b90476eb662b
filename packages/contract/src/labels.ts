import type { ModerationStatus, Visibility } from "./characters.ts";
import type { Permission, SubscriberRole } from "./permissions.ts";
import type { PersonaErrorType } from "./personas.ts";
import type { PromptSection } from "./prompt.ts";

// Display constants without zod, importable from "@hearth/contract/labels" so the client's first
// page load does not pull in the schema library.

/** What each role is called in the product. */
export const roleTitle: Record<SubscriberRole, string> = {
  free: "Free",
  minimal: "Get a Taste",
  basic: "True Supporter",
  premium: "I'm All In",
};

// --- Characters (chat-and-characters §3-§5, §9) ---------------------------------------------

/**
 * Field limits of `characterFields` in characters.ts, for counters and maxLength in forms.
 * A unit test (apps/web/src/features/characters/limits.test.ts) keeps them equal to the schema.
 */
export const characterLimits = {
  name: 100,
  title: 200,
  greeting: 20_000,
  persona: 50_000,
  personality: 20_000,
  scenario: 20_000,
  dialogue: 50_000,
  alternate_greeting: 20_000,
  alternate_greetings: 50,
  system_prompt: 20_000,
  post_history_instructions: 20_000,
  creator_notes: 20_000,
  tag: 32,
  tags: 12,
  language_min: 2,
  language_max: 16,
} as const;

/** The spec's wording when a 13th tag is added (chat-and-characters §5). */
export const tooManyTagsMessage = `You can keep only ${characterLimits.tags} tags !`;

export const visibilityTitle: Record<Visibility, string> = {
  public: "Public",
  hidden: "Unlisted",
  private: "Private",
  permanently_private: "Private (locked)",
};

export const visibilityHelp: Record<Visibility, string> = {
  public: "Anyone can find it in search and on the home page, and chat with it.",
  hidden: "Not listed anywhere, but anyone with the link can open it and chat.",
  private: "Only you can see and chat with it.",
  permanently_private: "Moderators made this chatbot private; it can't be shared again.",
};

/** The status badge on a creator's own cards (chat-and-characters §4, "Card badge mapping"). */
export type CharacterBadge = "REVIEW" | "ACTION" | "PUBLIC" | "PRIVATE" | "UNLISTED";

export function characterBadge(status: ModerationStatus, visibility: Visibility): CharacterBadge {
  if (status === "pending" || status === "rereview_required") return "REVIEW";
  if (status === "fix_required") return "ACTION";
  if (visibility === "public") return "PUBLIC";
  if (visibility === "hidden") return "UNLISTED";
  return "PRIVATE";
}

/** My Chatbots' default order: fix_required first, then review, then the rest (§4). */
export function moderationRank(status: ModerationStatus): number {
  if (status === "fix_required") return 0;
  if (status === "rereview_required" || status === "pending") return 1;
  return 2;
}

/** The characters a tag may use (the `tag` schema in characters.ts; kept equal by a unit test). */
export const tagPattern = /^[\p{L}\p{N} _&'+-]+$/u;
export const tagRuleMessage = "Tags use letters, digits, spaces and - _ & ' +";

// --- Chats (chat-and-characters §2, §5, §9) --------------------------------------------------

/**
 * TITLE_MAX, CONVERSATION_PAGE_SIZE and MESSAGE_MAX of chats.ts, for the chat screens (loaded
 * lazily, without the schema library). A unit test (apps/web/src/features/chat/limits.test.ts)
 * keeps them equal to the contract.
 */
export const chatLimits = {
  title: 50,
  conversationPage: 25,
  message: 20_000,
} as const;

// --- Chat tools (chat-and-characters §4, §5, §6) ---------------------------------------------

/** The generation settings a user may tune (`generationSettings` in chats.ts). */
export type GenerationSettingKey = "max_new_tokens" | "temperature" | "top_p" | "top_k";

/**
 * The sliders of the Generation Settings modal: the ranges and steps of §5 (kept equal to the
 * `generationSettings` schema by a unit test) and the values used when the user sets none.
 */
export const generationSettingFields: ReadonlyArray<{
  key: GenerationSettingKey;
  label: string;
  help: string;
  min: number;
  max: number;
  step: number;
  default: number;
}> = [
  {
    key: "max_new_tokens",
    label: "Max new tokens",
    help: "How long a reply may get.",
    min: 180,
    max: 300,
    step: 1,
    default: 200,
  },
  {
    key: "temperature",
    label: "Temperature",
    help: "Higher is more surprising, lower is more predictable.",
    min: 0,
    max: 1.5,
    step: 0.01,
    default: 0.8,
  },
  {
    key: "top_p",
    label: "Top-p",
    help: "Only the likeliest words that together reach this share are considered.",
    min: 0.01,
    max: 1,
    step: 0.01,
    default: 0.95,
  },
  {
    key: "top_k",
    label: "Top-k",
    help: "Only this many of the likeliest words are considered.",
    min: 1,
    max: 100,
    step: 1,
    default: 40,
  },
];

/** The plan that first grants a permission (chat-and-characters §6 tiers), for "Plan Required" modals. */
/**
 * The permissions a member would call benefits, in words, for the profile's 'Your Benefits'
 * chips (§2.2). The rest (site access, ads, restrictions) are not benefits and have no entry.
 */
export const benefitTitle: Partial<Record<Permission, string>> = {
  delete_character: "Delete your chatbots",
  generation_settings: "Generation settings",
  conversation_images: "Images in chats",
  conversation_images_v2: "Images on private chatbots",
  image_training: "Image training per chatbot",
  "3k_context": "3K context memory",
  "4k_context": "4K context memory",
  "8k_context": "8K context memory (beta)",
  memory_manager: "Memory manager",
  conversation_memory_auto: "Semantic memory",
  skip_waiting_room: "Skip the waiting line",
  priority_queue: "Priority queue",
  personas: "Personas",
  TTS: "Voice replies",
  admin: "Administrator",
};

export const planForPermission: Partial<Record<Permission, Exclude<SubscriberRole, "free">>> = {
  skip_waiting_room: "minimal",
  memory_manager: "minimal",
  "3k_context": "minimal",
  "4k_context": "basic",
  generation_settings: "basic",
  conversation_images: "basic",
  conversation_images_v2: "basic",
  conversation_memory_auto: "basic",
  TTS: "basic",
  "8k_context": "premium",
  image_training: "premium",
  priority_queue: "premium",
};

/** What each paid plan brings (chat-and-characters §6, "Tiers"), each including the one before. */
export const planPerks: Record<Exclude<SubscriberRole, "free">, readonly string[]> = {
  minimal: ["Skip the waiting line", "Memory manager", "Personas"],
  basic: [
    "Everything in Get a Taste",
    "4K context memory",
    "Semantic memory 2.0",
    "Longer responses and generation settings",
    "Images in conversations",
    "45B models",
  ],
  premium: [
    "Everything in True Supporter",
    "Priority queue",
    "70B models (beta)",
    "8K context memory (beta)",
    "Images on private chatbots",
  ],
};

// --- Personas (chat-and-characters §2, §5, §8) -----------------------------------------------

/** PERSONA_NAME_MAX and PERSONA_HIGHLIGHTS_MAX of personas.ts (kept equal by a unit test). */
export const personaLimits = { name: 30, highlights: 1000 } as const;

/** DEFAULT_PERSONA_DELETE_MESSAGE of personas.ts: the spec's refusal text (§5). */
export const defaultPersonaDeleteMessage =
  "You cannot delete the default persona, please set another persona as the default or create a new one first.";

/** What the client says for each persona `error_type` (§8: "a message chosen by error_type"). */
export const personaErrorMessages: Record<PersonaErrorType, string> = {
  persona_not_found: "This persona doesn't exist any more, or it isn't yours.",
  persona_name_taken: "You already have a persona with this name. Choose another name.",
  default_persona_delete: defaultPersonaDeleteMessage,
  persona_limit_reached: "You've reached the persona limit for your plan.",
  personas_not_allowed: "Personas aren't available to your account.",
};

// --- Prompts -------------------------------------------------------------------------------

/** The names of what the prompt builder cuts, for the editor's cost and "why did it say that". */
export const promptSectionName: Record<PromptSection, string> = {
  examples: "Example dialogue",
  history: "Chat history",
  description: "Personality",
  scenario: "Scenario",
  system_prompt: "System prompt",
  user_persona: "The user's persona",
  post_history: "Post-history instructions",
  lore_before: "Lorebook (before the character)",
  lore_after: "Lorebook (after the character)",
  lore_depth: "Lorebook (inside the chat)",
  memories: "Memories",
};
