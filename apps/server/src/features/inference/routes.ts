import { modelEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { route } from "../../http/route.ts";
import { type Auth, getViewer, storedDefaultModel } from "../accounts/index.ts";
import { modelsFor } from "./registry.ts";
import type { InferenceService } from "./service.ts";

export async function modelRoutes(
  app: FastifyInstance,
  opts: { auth: Auth; db: Db; inference: InferenceService },
) {
  route(app, modelEndpoints.list, async ({ query, req }) => {
    const windows = await opts.inference.windows();
    const viewer = await getViewer(opts.auth, req);
    // The member's Settings page default: what their chats start with when this device chose nothing.
    const viewerDefault = viewer ? await storedDefaultModel(opts.db, viewer.id) : null;
    return modelsFor(
      opts.inference.registry,
      viewer,
      (entry) => windows.get(entry.id) ?? 0,
      query.selected,
      viewerDefault ?? undefined,
    );
  });
}
