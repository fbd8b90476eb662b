import { characterEndpoints, moderationEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import type { FileStorage } from "../../ports/storage.ts";
import { type Auth, getViewer } from "../accounts/index.ts";
import { invalidAccess, toCharacter } from "../characters/index.ts";
import { assertCanModerate, assertCanReport } from "./policy.ts";
import type { ModerationService } from "./service.ts";

export interface ModerationRouteDeps {
  auth: Auth;
  storage: FileStorage;
  service: ModerationService;
}

/**
 * Reports (members with report_character) and the moderators' API (administrators), each group
 * behind a plugin-level check that runs before any input is read.
 */
export async function moderationRoutes(app: FastifyInstance, deps: ModerationRouteDeps) {
  await app.register(reportRoutes, deps);
  await app.register(adminRoutes, deps);
}

async function reportRoutes(app: FastifyInstance, { auth, service }: ModerationRouteDeps) {
  const reporter = async (req: Parameters<typeof getViewer>[1]) =>
    assertCanReport(await getViewer(auth, req));
  app.addHook("preHandler", async (req) => {
    await reporter(req);
  });

  route(app, moderationEndpoints.reportCharacter, async ({ req, body }) =>
    service.reportCharacter(await reporter(req), body),
  );
  route(app, moderationEndpoints.reportMessage, async ({ req, body }) =>
    service.reportMessage(await reporter(req), body),
  );
}

async function adminRoutes(app: FastifyInstance, { auth, storage, service }: ModerationRouteDeps) {
  const admin = async (req: Parameters<typeof getViewer>[1]) => assertCanModerate(await getViewer(auth, req));
  app.addHook("preHandler", async (req) => {
    await admin(req);
  });

  route(app, moderationEndpoints.listReviews, async ({ query }) => service.listReviews(query));

  route(app, moderationEndpoints.updateReview, async ({ req, params, body }) =>
    service.closeReview(await admin(req), params.id, body),
  );

  route(app, moderationEndpoints.updateCharacter, async ({ req, params, body }) => {
    const { row, closed } = await service.updateCharacter(await admin(req), params.id, body);
    return service.result(row, closed);
  });

  route(app, moderationEndpoints.deleteCharacter, async ({ req, params, query }) =>
    service.deleteCharacter(await admin(req), params.id, query.review_id),
  );

  route(app, moderationEndpoints.auditLog, async ({ query }) => service.auditLog(query));

  // Approve or send back with reasons (the editor's banner shows them); the same rules as above.
  route(app, characterEndpoints.moderate, async ({ req, params, body }) => {
    const viewer = await admin(req);
    await service.updateCharacter(viewer, params.id, body);
    const found = await service.find(params.id);
    if (!found) throw invalidAccess();
    return toCharacter(found, viewer, storage);
  });
}
