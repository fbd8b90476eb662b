import { accountEndpoints } from "@hearth/contract";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { forbidden, HttpError } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { Auth } from "./auth.ts";
import { isRestricted } from "./policy.ts";
import { users } from "./schema.ts";
import { requireViewer, type Viewer } from "./viewer.ts";

/** The model registry's answer to "may this viewer choose this model", given by the composition root. */
export interface ModelChoices {
  mayChoose(viewer: Viewer, modelId: string): boolean;
}

export const MODEL_NOT_OFFERED = "This model is not offered to you. Choose one from the list.";

/** The Settings page: the model a member's new chats start with (users.default_model_id). */
export async function defaultModelRoutes(
  app: FastifyInstance,
  { db, auth, models }: { db: Db; auth: Auth; models: ModelChoices },
) {
  route(app, accountEndpoints.getDefaultModel, async ({ req }) => {
    const viewer = await requireViewer(auth, req);
    return { model_id: await storedDefaultModel(db, viewer.id) };
  });

  route(app, accountEndpoints.setDefaultModel, async ({ req, body }) => {
    const viewer = await requireViewer(auth, req);
    if (viewer.isGuest) throw forbidden("Guests can't save settings. Sign up for a free account.");
    if (isRestricted(viewer)) {
      throw new HttpError(
        403,
        "restricted",
        "Your account is restricted, so its settings cannot be changed.",
      );
    }
    if (body.model_id !== null && !models.mayChoose(viewer, body.model_id)) {
      throw new HttpError(400, "invalidRequest", MODEL_NOT_OFFERED, [
        { path: "model_id", message: MODEL_NOT_OFFERED },
      ]);
    }
    await db
      .update(users)
      .set({ defaultModelId: body.model_id, updatedAt: new Date() })
      .where(eq(users.id, viewer.id));
    return { model_id: body.model_id };
  });
}

/** The member's chosen default model id, or null for the server's default. */
export async function storedDefaultModel(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.defaultModelId })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row?.id ?? null;
}
