import multipart from "@fastify/multipart";
import { accountEndpoints, type Me } from "@hearth/contract";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { unauthorized } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { readUpload } from "../../http/upload.ts";
import { AVATAR_MAX_BYTES, avatarUrl, deleteAvatarFiles, storeAvatar } from "../../lib/avatars.ts";
import type { FileStorage } from "../../ports/storage.ts";
import type { Auth } from "./auth.ts";
import { assertCanChangeOwnProfile } from "./policy.ts";
import { users } from "./schema.ts";
import { requireViewer, toMe, viewerFromUser } from "./viewer.ts";

/**
 * The member's own avatar (accounts-billing-admin §2.2 Profile settings): checked, rendered and
 * stored like character avatars (lib/avatars.ts), shown through `image` (the address /api/me
 * answers as avatar_url). The previous upload's files go once the new one is saved.
 */
export async function profileAvatarRoutes(
  app: FastifyInstance,
  { db, auth, storage }: { db: Db; auth: Auth; storage: FileStorage },
) {
  await app.register(multipart, { limits: { files: 1, fields: 10, parts: 11 } });

  route(app, accountEndpoints.setAvatar, async ({ req }): Promise<Me> => {
    const viewer = await requireViewer(auth, req);
    assertCanChangeOwnProfile(viewer);
    const { data } = await readUpload(req, AVATAR_MAX_BYTES);
    const key = await storeAvatar(storage, `users/${viewer.id}`, data);
    try {
      return await swapAvatar(db, storage, viewer.id, key);
    } catch (error) {
      await deleteAvatarFiles(storage, key);
      throw error;
    }
  });

  route(app, accountEndpoints.removeAvatar, async ({ req }): Promise<Me> => {
    const viewer = await requireViewer(auth, req);
    assertCanChangeOwnProfile(viewer);
    return swapAvatar(db, storage, viewer.id, null);
  });
}

/** Points the account at the new files (or none), then removes the old ones after the commit. */
async function swapAvatar(db: Db, storage: FileStorage, userId: string, key: string | null): Promise<Me> {
  const { row, oldKey } = await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ key: users.avatarKey })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!before) throw unauthorized();
    const [after] = await tx
      .update(users)
      .set({ avatarKey: key, image: avatarUrl(storage, key), updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    return { row: after, oldKey: before.key };
  });
  if (!row) throw unauthorized();
  if (oldKey !== key) await deleteAvatarFiles(storage, oldKey);
  return toMe(viewerFromUser(row));
}
