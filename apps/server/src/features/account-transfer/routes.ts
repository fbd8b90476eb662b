import multipart from "@fastify/multipart";
import { ACCOUNT_IMPORT_MAX_BYTES, accountTransferEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import { route } from "../../http/route.ts";
import { openUpload, spoolUpload } from "../../http/upload.ts";
import { type Auth, getViewer } from "../accounts/index.ts";
import { exportName } from "../chat-transfer/index.ts";
import { assertCanTransferAccount } from "./policy.ts";
import { type AccountTransferDeps, AccountTransferService } from "./service.ts";

/** A little over the archive's own limit, for the multipart framing around it. */
const IMPORT_BODY_LIMIT = ACCOUNT_IMPORT_MAX_BYTES + 64 * 1024;

/**
 * GET /api/account/export and POST /api/account/import. Who may is settled in a preHandler,
 * before any input is read (policy.ts); the archive, at most 200 MB, is saved to a temporary
 * file as it arrives and read from there.
 */
export async function accountTransferRoutes(
  app: FastifyInstance,
  deps: AccountTransferDeps & { auth: Auth },
) {
  const service = new AccountTransferService(deps);
  await app.register(multipart, { limits: { files: 1, fields: 10, parts: 11 } });
  app.addHook("onRoute", (opts) => {
    if (opts.method === "POST") opts.bodyLimit = IMPORT_BODY_LIMIT;
  });
  app.addHook("preHandler", async (req) => {
    assertCanTransferAccount(await getViewer(deps.auth, req), req.method === "GET" ? "export" : "import");
  });

  route(app, accountTransferEndpoints.export, async ({ req, reply }) => {
    const viewer = assertCanTransferAccount(await getViewer(deps.auth, req), "export");
    const body = service.export(viewer, (error) => req.log.error({ err: error }, "account export failed"));
    const name = `${exportName(`Hearth ${viewer.username ?? viewer.name}`, null, new Date())}.zip`;
    const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
    return reply
      .header("content-type", "application/zip")
      .header(
        "content-disposition",
        `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      )
      .header("cache-control", "private, no-store")
      .send(body);
  });

  route(app, accountTransferEndpoints.import, async ({ req }) => {
    const viewer = assertCanTransferAccount(await getViewer(deps.auth, req), "import");
    // Saved to a temporary file as it arrives (a zip is read from its end), refused at the limit.
    const saved = await spoolUpload(await openUpload(req, ACCOUNT_IMPORT_MAX_BYTES));
    try {
      return await service.import(viewer, saved.path);
    } finally {
      await saved.remove();
    }
  });
}
