import { modelEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import { type Auth, getViewer } from "../accounts/index.ts";
import { modelsFor } from "./registry.ts";
import type { InferenceService } from "./service.ts";

export async function modelRoutes(app: FastifyInstance, opts: { auth: Auth; inference: InferenceService }) {
  route(app, modelEndpoints.list, async ({ query, req }) => {
    const windows = await opts.inference.windows();
    return modelsFor(
      opts.inference.registry,
      await getViewer(opts.auth, req),
      (entry) => windows.get(entry.id) ?? 0,
      query.selected,
    );
  });
}
