import { modelListQuery } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { parse } from "../../http/validate.ts";
import type { Auth } from "../accounts/auth.ts";
import { getViewer } from "../accounts/viewer.ts";
import { modelsFor } from "./registry.ts";
import type { InferenceService } from "./service.ts";

export async function modelRoutes(app: FastifyInstance, opts: { auth: Auth; inference: InferenceService }) {
  app.get("/api/models", async (req) => {
    const { selected } = parse(modelListQuery, req.query);
    const windows = await opts.inference.windows();
    return modelsFor(
      opts.inference.registry,
      await getViewer(opts.auth, req),
      (entry) => windows.get(entry.id) ?? 0,
      selected,
    );
  });
}
