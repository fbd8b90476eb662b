import type { Db } from "../../db/client.ts";
import { deleteAvatarFiles } from "../../lib/avatars.ts";
import type { FileStorage } from "../../ports/storage.ts";
import { handCharactersTo } from "../characters/index.ts";
import {
  deletedCreatorAccount,
  deleteUserRow,
  lockForDeletion,
  otherAdmins,
  ownedBots,
  personaAvatarKeys,
} from "./deletion-queries.ts";

/**
 * Account deletion (accounts-billing-admin §2.2, §7 DELETE users): the account and everything it
 * owns go in one transaction; the avatar files after the commit (a failed file delete leaves an
 * orphan file, never a half-deleted account). Its shared bots are deleted with it, or with
 * HEARTH_DELETED_CREATOR_BOTS=keep handed to the deleted creators' account (deletion-queries.ts)
 * so others keep their chats.
 */

export type DeletedBotsPolicy = "delete" | "keep";

export type DeletionResult = "deleted" | "gone" | "lastAdmin";

/**
 * Another feature's part in a deletion, run in its transaction before the account row goes (the
 * cascade then takes that feature's rows); the step it answers runs after the row is gone, in the
 * same transaction: ratings recompute the scores of the bots the account rated. The composition
 * root supplies them, so accounts need not know the features that hang off a user.
 */
export type AccountDeletionHook = (tx: Db, userId: string) => Promise<((tx: Db) => Promise<void>) | null>;

export async function deleteAccount(
  deps: { db: Db; storage: FileStorage; bots: DeletedBotsPolicy; hooks?: AccountDeletionHook[] },
  userId: string,
): Promise<DeletionResult> {
  const files: (string | null)[] = [];
  const result = await deps.db.transaction(async (tx): Promise<DeletionResult> => {
    const { row, adminIds } = await lockForDeletion(tx, userId);
    if (!row) return "gone";
    if (row.isAdmin && !otherAdmins(adminIds, userId)) return "lastAdmin";
    files.push(row.avatarKey, ...(await personaAvatarKeys(tx, userId)));
    const bots = await ownedBots(tx, userId);
    const kept = deps.bots === "keep" ? bots.filter((b) => b.shared) : [];
    if (kept.length > 0) {
      await handCharactersTo(
        tx,
        kept.map((b) => b.id),
        await deletedCreatorAccount(tx),
      );
    }
    const keptIds = new Set(kept.map((b) => b.id));
    files.push(...bots.filter((b) => !keptIds.has(b.id)).map((b) => b.avatarKey));
    // One after another: a transaction is one connection.
    const after = [];
    for (const hook of deps.hooks ?? []) after.push(await hook(tx, userId));
    await deleteUserRow(tx, userId);
    for (const step of after) await step?.(tx);
    return "deleted";
  });
  if (result === "deleted") {
    await Promise.all(files.map((key) => deleteAvatarFiles(deps.storage, key)));
  }
  return result;
}
