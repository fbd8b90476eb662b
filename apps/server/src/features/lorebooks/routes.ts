import multipart from "@fastify/multipart";
import {
  LOREBOOK_IMPORT_MAX_BYTES,
  LOREBOOKS_PER_CONVERSATION_MAX,
  LOREBOOKS_PER_USER_MAX,
  lorebookEndpoints,
} from "@hearth/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { route } from "../../http/route.ts";
import { readUpload } from "../../http/upload.ts";
import { type Auth, getViewer, type Viewer } from "../accounts/index.ts";
import { answerOnce } from "../idempotency/index.ts";
import { toCharacterBook, toWorldInfo } from "./formats.ts";
import { type ReadCard, readLorebookFile } from "./import.ts";
import { testLorebook } from "./lore-test.ts";
import {
  assertCanKeepLorebooks,
  conversationNotFound,
  lorebookLimitReached,
  lorebookNotFound,
} from "./policy.ts";
import { contentDisposition, exportFilename, toLorebook, toLorebookSummary } from "./present.ts";
import {
  attachedLorebooks,
  conversationOwner,
  countLorebooks,
  countOwnLorebooks,
  deleteLorebook,
  findOwnLorebook,
  insertLorebook,
  listLorebooks,
  setAttachedLorebooks,
  updateLorebook,
} from "./queries.ts";

export interface LorebookRouteDeps {
  db: Db;
  auth: Auth;
  /** The characters feature's card reader, for books inside PNG, JSON or CharX cards. */
  readCard: ReadCard;
  /** A token counter for the test box: the default model's when it is ready, else an estimate. */
  tokenCounter: () => Promise<(text: string) => number>;
}

/** A book of 500 entries of 8,000 characters is larger than the app-wide 1 MB body limit. */
const LOREBOOK_BODY_LIMIT = 12 * 1024 * 1024;

/**
 * Standalone lorebooks (`lorebookEndpoints`): a signed-in member's own books, their import and
 * export, the editor's test box, and the books attached to the member's conversations. Who may
 * is checked before any input is read; another member's book or conversation answers 404.
 */
export async function lorebookRoutes(app: FastifyInstance, deps: LorebookRouteDeps) {
  const { db } = deps;
  await app.register(multipart, { limits: { files: 1, fields: 10, parts: 11 } });
  app.addHook("onRoute", (opts) => {
    opts.bodyLimit = LOREBOOK_BODY_LIMIT;
  });
  const viewerOf = async (req: FastifyRequest): Promise<Viewer> =>
    assertCanKeepLorebooks(await getViewer(deps.auth, req));
  app.addHook("preHandler", async (req) => {
    await viewerOf(req);
  });

  const ownBook = async (viewer: Viewer, id: string) => {
    const row = await findOwnLorebook(db, viewer.id, id);
    if (!row) throw lorebookNotFound();
    return row;
  };
  const ownConversation = async (viewer: Viewer, id: string) => {
    if ((await conversationOwner(db, id)) !== viewer.id) throw conversationNotFound();
  };
  const roomForOneMore = async (viewer: Viewer) => {
    if ((await countLorebooks(db, viewer.id)) >= LOREBOOKS_PER_USER_MAX) throw lorebookLimitReached();
  };
  const attached = async (conversationId: string) => ({
    lorebooks: (await attachedLorebooks(db, conversationId)).map(toLorebookSummary),
    max_lorebooks: LOREBOOKS_PER_CONVERSATION_MAX,
  });

  route(app, lorebookEndpoints.list, async ({ req }) => {
    const viewer = await viewerOf(req);
    return {
      lorebooks: (await listLorebooks(db, viewer.id)).map(toLorebookSummary),
      max_lorebooks: LOREBOOKS_PER_USER_MAX,
    };
  });

  route(app, lorebookEndpoints.create, async ({ req, body }) => {
    const viewer = await viewerOf(req);
    await roomForOneMore(viewer);
    return toLorebook(await insertLorebook(db, viewer.id, body));
  });

  route(app, lorebookEndpoints.get, async ({ req, params }) => {
    return toLorebook(await ownBook(await viewerOf(req), params.id));
  });

  route(app, lorebookEndpoints.update, async ({ req, params, body }) => {
    const row = await ownBook(await viewerOf(req), params.id);
    const updated = await updateLorebook(db, row.id, body);
    if (!updated) throw lorebookNotFound();
    return toLorebook(updated);
  });

  route(app, lorebookEndpoints.delete, async ({ req, params }) => {
    const row = await ownBook(await viewerOf(req), params.id);
    await deleteLorebook(db, row.id);
  });

  // A multipart body is read by the handler itself, after the viewer is checked.
  route(app, lorebookEndpoints.import, async ({ req, reply }) => {
    const viewer = await viewerOf(req);
    const upload = await readUpload(req, LOREBOOK_IMPORT_MAX_BYTES);
    const keyed = { db, req, reply, userId: viewer.id, def: lorebookEndpoints.import };
    // A retry with the same Idempotency-Key is answered the first import's book (and is not
    // refused as one too many).
    return answerOnce({ ...keyed, parts: [upload.filename, upload.data] }, async () => {
      await roomForOneMore(viewer);
      const read = await readLorebookFile(upload.data, upload.filename, deps.readCard);
      return {
        lorebook: toLorebook(await insertLorebook(db, viewer.id, read.body)),
        format: read.format,
        skipped_entries: read.skipped,
      };
    });
  });

  route(app, lorebookEndpoints.export, async ({ req, reply, params, query }) => {
    const row = await ownBook(await viewerOf(req), params.id);
    const file = query.format === "character_book" ? toCharacterBook(row.book) : toWorldInfo(row.book);
    return reply
      .header("content-type", "application/json; charset=utf-8")
      .header("content-disposition", contentDisposition(exportFilename(row.name, query.format)))
      .header("cache-control", "private, no-store")
      .send(JSON.stringify(file, null, 2));
  });

  route(app, lorebookEndpoints.test, async ({ req, body }) => {
    await viewerOf(req);
    return testLorebook(body.book, body.text, await deps.tokenCounter());
  });

  route(app, lorebookEndpoints.conversationList, async ({ req, params }) => {
    await ownConversation(await viewerOf(req), params.id);
    return attached(params.id);
  });

  route(app, lorebookEndpoints.conversationSet, async ({ req, params, body }) => {
    const viewer = await viewerOf(req);
    await ownConversation(viewer, params.id);
    const ids = [...new Set(body.lorebook_ids)];
    // A book that is not the member's is as missing as one that does not exist.
    if ((await countOwnLorebooks(db, viewer.id, ids)) !== ids.length) throw lorebookNotFound();
    await setAttachedLorebooks(db, params.id, ids);
    return attached(params.id);
  });
}
