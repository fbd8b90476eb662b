import type { PromptReport } from "@hearth/contract";
import type { Config } from "../../../config.ts";
import { HttpError } from "../../../http/errors.ts";
import { assertPermission, effectiveRole, isAdministrator, type Viewer } from "../../accounts/index.ts";
import { canSeeDefinition, type PolicyCharacter } from "../../characters/index.ts";
import type { StoredPromptReport } from "../schema.ts";

type Standing = "guest" | "free" | "paid";

function standingOf(viewer: Viewer): Standing {
  if (viewer.isGuest) return "guest";
  return effectiveRole(viewer) === "free" && !isAdministrator(viewer) ? "free" : "paid";
}

/** The limit error differs by standing (spec §8 "Limit reached"); guests are offered a free account. */
const LIMIT_MESSAGES: Record<Standing, string> = {
  guest: "You've reached today's guest limit. Sign up free to keep chatting.",
  free: "You've used today's free messages. They refill at midnight UTC, or upgrade for more.",
  paid: "You've reached today's message limit for your plan. It refills at midnight UTC.",
};

/** Every generation needs view_chat and, for guests and free users, room under the daily limit. */
export function assertMayGenerate(
  config: Config,
  viewer: Viewer,
  countsAsMessage: boolean,
  /** Messages the viewer sent today (daily_usage), read with the request's context. */
  sentToday: number,
): void {
  assertPermission(viewer, "view_chat");
  if (!countsAsMessage) return;
  const standing = standingOf(viewer);
  const limit = config.dailyLimits[standing];
  if (limit > 0 && sentToday >= limit) {
    throw new HttpError(429, "limitReached", LIMIT_MESSAGES[standing]);
  }
}

/** What stands in for a part of the prompt the character's creator keeps private. */
export const HIDDEN_BY_CREATOR = "Hidden by the creator";

/**
 * "Why this reply?" for a viewer: everything the prompt held of their own (persona, memories,
 * their lorebooks' entries, history and cuts), and of the character's definition only what they
 * may see (characters' `canSeeDefinition`). Entries of the character's own book become a
 * placeholder, saying neither their name, their key nor their id.
 */
export function promptReportFor(
  viewer: Viewer,
  character: PolicyCharacter,
  stored: StoredPromptReport,
): Omit<PromptReport, "message_id" | "generated_at" | "model_id"> {
  const shown = canSeeDefinition(viewer, character);
  let hidden = 0;
  const lore = stored.lore.map(({ from_character, ...entry }) =>
    shown || from_character === false
      ? entry
      : { id: `hidden-${++hidden}`, name: HIDDEN_BY_CREATOR, position: entry.position, reason: "hidden" },
  );
  return { ...stored, lore };
}
