import { z } from "zod";
import { uuidParam } from "./endpoint.ts";

// Shapes of the blocking feature (issue 11; chat-and-characters §2, §6, §8; accounts-billing-admin
// §2.2 Blocked creators page, §3 Blocked creator, §7).

/** The spec's text for chatting with a blocked creator's bot (chat-and-characters §8). */
export const BLOCKED_BOT_CREATOR_MESSAGE =
  "You have blocked the creator of this character. Please unblock creator to use this character.";

/** One blocked creator, as the Blocked creators page lists them. */
export const blockedCreator = z.object({
  id: z.string(),
  /** Null for an account that never chose a username (it has no creator page). */
  username: z.string().nullable(),
  name: z.string().nullable(),
  avatar_url: z.string().nullable(),
  blocked_at: z.string(),
});
export type BlockedCreator = z.infer<typeof blockedCreator>;

/** GET /api/users/blocked-creators: newest block first. */
export const blockedCreatorList = z.object({ creators: z.array(blockedCreator) });
export type BlockedCreatorList = z.infer<typeof blockedCreatorList>;

/** POST /api/users/blocked-creators: `creator` is the creator's user id (accounts-billing-admin §7). */
export const blockCreatorRequest = z.object({ creator: uuidParam });
export type BlockCreatorRequest = z.infer<typeof blockCreatorRequest>;

/** What blocking or unblocking answers: the creator and whether they are blocked now. */
export const blockState = z.object({
  creator: blockedCreator.omit({ blocked_at: true }),
  blocked: z.boolean(),
});
export type BlockState = z.infer<typeof blockState>;
