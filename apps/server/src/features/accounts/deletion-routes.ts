import { accountLifecycleEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { HttpError, unauthorized } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "./auth.ts";
import { type AccountDeletionHook, deleteAccount } from "./deletion.ts";
import { requireViewer } from "./viewer.ts";

/**
 * DELETE /api/users: one's own account, a guest's too, and a restricted account's (every account
 * keeps the right to be deleted). Refused to the install's last administrator, who would lock
 * everyone out of administration.
 */
export async function deletionRoutes(
  app: FastifyInstance,
  deps: { config: Config; db: Db; auth: Auth; storage: FileStorage; deletionHooks: AccountDeletionHook[] },
) {
  route(app, accountLifecycleEndpoints.deleteAccount, async ({ req }) => {
    const viewer = await requireViewer(deps.auth, req);
    const result = await deleteAccount(
      {
        db: deps.db,
        storage: deps.storage,
        bots: deps.config.deletedCreatorBots,
        hooks: deps.deletionHooks,
      },
      viewer.id,
    );
    if (result === "gone") throw unauthorized();
    if (result === "lastAdmin") {
      throw new HttpError(
        409,
        "conflict",
        "You are the only administrator. Make another account an administrator before deleting yours.",
      );
    }
  });
}
