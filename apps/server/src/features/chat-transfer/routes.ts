import multipart from "@fastify/multipart";
import { CHAT_IMPORT_MAX_BYTES, chatTransferEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import { openUpload } from "../../http/upload.ts";
import { type Auth, getViewer, requireViewer } from "../accounts/index.ts";
import { answerOnce, idempotencyKeyOf, readWhole } from "../idempotency/index.ts";
import { assertCanImportChats } from "./policy.ts";
import { type ChatTransferDeps, ChatTransferService, contentDisposition } from "./service.ts";

/** A little over the file's own limit, for the multipart framing around it. */
const IMPORT_BODY_LIMIT = CHAT_IMPORT_MAX_BYTES + 64 * 1024;

/**
 * Chat import and export (`chatTransferEndpoints`). The import's viewer is checked before its
 * body is read; the file is read as it arrives (at most CHAT_IMPORT_MAX_BYTES, a SillyTavern
 * chat refused at its first message past the limit) and stored in one transaction.
 */
export async function chatTransferRoutes(app: FastifyInstance, deps: ChatTransferDeps & { auth: Auth }) {
  const service = new ChatTransferService(deps);
  await app.register(multipart, { limits: { files: 1, fields: 10, parts: 11 } });
  app.addHook("onRoute", (opts) => {
    if (opts.method === "POST") opts.bodyLimit = IMPORT_BODY_LIMIT;
  });
  // Who may is settled before any input is read: a signed-out caller hears 401 whatever it sent.
  app.addHook("preHandler", async (req) => {
    const viewer = await requireViewer(deps.auth, req);
    if (req.method === "POST") assertCanImportChats(viewer);
  });

  route(app, chatTransferEndpoints.import, async ({ req, reply, query }) => {
    const viewer = assertCanImportChats(await getViewer(deps.auth, req));
    const upload = await openUpload(req, CHAT_IMPORT_MAX_BYTES);
    try {
      const input = { characterId: query.character_id, userPersonaId: query.user_persona_id ?? null };
      if (idempotencyKeyOf(req) === null)
        return await service.importChat(viewer, { ...input, data: upload.chunks });
      // A keyed import is read whole first: a retry is matched to it by the file's hash.
      const data = await readWhole(upload.chunks);
      const keyed = { db: deps.db, req, reply, userId: viewer.id, def: chatTransferEndpoints.import };
      const parts = [input.characterId, input.userPersonaId ?? "", data];
      return await answerOnce({ ...keyed, parts }, () => service.importChat(viewer, { ...input, data }));
    } finally {
      // A refusal before the file was read (no such character) must not leave the body waiting.
      upload.close();
    }
  });

  route(app, chatTransferEndpoints.export, async ({ req, reply, params, query }) => {
    const file = await service.exportChat(await getViewer(deps.auth, req), params.id, query.format);
    return reply
      .header("content-type", file.contentType)
      .header("content-disposition", contentDisposition(file.filename, file.inline))
      .header("cache-control", "private, no-store")
      .send(file.body);
  });
}
