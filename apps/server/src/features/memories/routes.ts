import { MEMORIES_PER_CONVERSATION_MAX, memoryEndpoints } from "@hearth/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { type Auth, contextTokens, getViewer, type Viewer } from "../accounts/index.ts";
import {
  assertCanManageMemories,
  conversationNotFound,
  type MemorySite,
  memoryBudgetTokens,
  memoryNotFound,
  writesAutomaticMemories,
} from "./policy.ts";
import { toMemory } from "./present.ts";
import {
  conversationOwner,
  countMemories,
  deleteMemory,
  findOwnMemory,
  insertMemory,
  listMemories,
  updateMemory,
} from "./queries.ts";

export interface MemoryRouteDeps {
  db: Db;
  auth: Auth;
  site: MemorySite;
}

/**
 * Manage Memories (chat-and-characters §2), declared in the contract (`memoryEndpoints`). Only
 * the conversation's owner, with memory_manager, outside the partner edition: checked before any
 * input is read. Another user's conversation or memory answers 404 like a missing one.
 */
export async function memoryRoutes(app: FastifyInstance, deps: MemoryRouteDeps) {
  const { db } = deps;
  const viewerOf = async (req: FastifyRequest): Promise<Viewer> =>
    assertCanManageMemories(await getViewer(deps.auth, req), deps.site);
  // Every route of this plugin: a signed-out caller, a guest or a free member is answered 401/403
  // whatever they sent (the viewer is resolved once per request, so the handlers' call is free).
  app.addHook("preHandler", async (req) => {
    await viewerOf(req);
  });

  const ownConversation = async (viewer: Viewer, id: string) => {
    if ((await conversationOwner(db, id)) !== viewer.id) throw conversationNotFound();
  };
  const ownMemory = async (viewer: Viewer, id: string) => {
    const row = await findOwnMemory(db, viewer.id, id);
    if (!row) throw memoryNotFound();
    return row;
  };

  route(app, memoryEndpoints.list, async ({ req, params }) => {
    const viewer = await viewerOf(req);
    await ownConversation(viewer, params.id);
    return {
      memories: (await listMemories(db, params.id)).map(toMemory),
      budget_tokens: memoryBudgetTokens(viewer.permissions, deps.site, contextTokens(viewer.permissions)),
      automatic: writesAutomaticMemories(viewer.permissions, deps.site),
      max_memories: MEMORIES_PER_CONVERSATION_MAX,
    };
  });

  route(app, memoryEndpoints.create, async ({ req, params, body }) => {
    const viewer = await viewerOf(req);
    await ownConversation(viewer, params.id);
    if ((await countMemories(db, params.id)) >= MEMORIES_PER_CONVERSATION_MAX) {
      throw new HttpError(
        403,
        "limitReached",
        `A conversation keeps at most ${MEMORIES_PER_CONVERSATION_MAX} memories. Delete some to add more.`,
        { errorType: "memory_limit_reached" },
      );
    }
    const row = await insertMemory(db, {
      conversationId: params.id,
      content: body.content,
      pinned: body.pinned,
      source: "manual",
    });
    return toMemory(row);
  });

  route(app, memoryEndpoints.update, async ({ req, params, body }) => {
    const viewer = await viewerOf(req);
    const row = await ownMemory(viewer, params.id);
    // Rewritten by the user, an automatic memory is theirs: later edits of its messages leave it be.
    const rewritten = body.content !== undefined && body.content !== row.content;
    const updated = await updateMemory(db, row.id, {
      ...(body.content !== undefined ? { content: body.content } : {}),
      ...(body.pinned !== undefined ? { pinned: body.pinned } : {}),
      ...(rewritten ? { source: "manual" as const, messageIds: [] } : {}),
    });
    if (!updated) throw memoryNotFound();
    return toMemory(updated);
  });

  route(app, memoryEndpoints.delete, async ({ req, params }) => {
    const viewer = await viewerOf(req);
    await deleteMemory(db, (await ownMemory(viewer, params.id)).id);
  });
}
