import type { ModerationStatus, Visibility } from "./characters.ts";
import type { SubscriberRole } from "./permissions.ts";

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
