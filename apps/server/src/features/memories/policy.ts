import { type MemorySite, memoriesOffered } from "../../config.ts";
import { HttpError, unauthorized } from "../../http/errors.ts";
import { assertNotRestricted, type Viewer } from "../accounts/index.ts";

/**
 * Who may manage memories (chat-and-characters §6: memory_manager and conversation_memory_auto;
 * hidden on the partner edition, §6 "Memory management ... hidden on partner or flagged builds")
 * and how much of a prompt they may fill.
 */

export const memoryNotFound = () =>
  new HttpError(404, "notFound", "This memory does not exist or is not yours.", {
    errorType: "memory_not_found",
  });

export const conversationNotFound = () =>
  new HttpError(404, "notFound", "No such conversation.", { errorType: "memory_not_found" });

export { type MemorySite, memoriesOffered } from "../../config.ts";

/** Signed in, not restricted (403 `restricted`), holding memory_manager, on a site that offers memories. */
export function assertCanManageMemories(viewer: Viewer | null, site: MemorySite): Viewer {
  if (!viewer) throw unauthorized();
  assertNotRestricted(viewer);
  const refuse = (message: string) =>
    new HttpError(403, "forbidden", message, { errorType: "memories_not_allowed" });
  if (!memoriesOffered(site)) throw refuse("Memories are not available on this site.");
  if (!viewer.permissions.includes("memory_manager")) {
    throw refuse(
      viewer.isGuest
        ? "Sign up and choose a plan with the memory manager to keep memories."
        : viewer.permissions.includes("limited_access")
          ? "Your account has limited access and cannot manage memories."
          : "Your plan does not include the memory manager. Upgrade to keep memories.",
    );
  }
  return viewer;
}

/**
 * Tokens of the prompt that memories may fill, by tier (the larger contexts get more), and never
 * more than a fifth of what the prompt may use. Zero without memory_manager or on the partner
 * edition: a member who downgrades keeps their memories, unused until they upgrade again.
 */
export function memoryBudgetTokens(
  permissions: readonly string[],
  site: MemorySite,
  promptTokens: number,
): number {
  if (!memoriesOffered(site) || !permissions.includes("memory_manager")) return 0;
  const tier = permissions.includes("8k_context") ? 768 : permissions.includes("4k_context") ? 512 : 256;
  return Math.max(0, Math.min(tier, Math.floor(promptTokens / 5)));
}

/** Whether the model writes memories on its own for this viewer. */
export const writesAutomaticMemories = (permissions: readonly string[], site: MemorySite) =>
  memoriesOffered(site) && permissions.includes("conversation_memory_auto");
