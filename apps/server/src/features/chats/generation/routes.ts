import { generationEndpoints, generationEventId, memoryEndpoints, uuidParam } from "@hearth/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../../../db/client.ts";
import { notFound } from "../../../http/errors.ts";
import { fastifyPath, route } from "../../../http/route.ts";
import { parse } from "../../../http/validate.ts";
import {
  type Auth,
  assertPermission,
  readsOwnSession,
  requireViewer,
  verifiedSessionToken,
  viewerFromRead,
} from "../../accounts/index.ts";
import { assertOwnsConversation } from "../policy.ts";
import { findConversation } from "../queries.ts";
import { type AcceptContext, acceptContextWithSession } from "./accept-queries.ts";
import { promptReportFor } from "./policy.ts";
import { findGeneration, latestPromptOf } from "./queries.ts";
import { storedDone } from "./recovery.ts";
import { cancelWaiting, keepPlaceFresh, placeOf } from "./scheduler.ts";
import { type GenerationDeps, GenerationService } from "./service.ts";
import { type EventStreamWriter, openEventStream, pipeGeneration } from "./sse.ts";
import { STOP_KEPT_S, stopNotice } from "./streams.ts";

const FINAL = new Set(["done", "stopped", "failed", "interrupted"]);
/** How long a resume of a finished generation looks for its kept events before answering from the database. */
const REPLAY_WAIT_MS = 1000;

export async function generationRoutes(app: FastifyInstance, deps: GenerationDeps & { auth: Auth }) {
  const { db, bus, auth } = deps;
  const generations = new GenerationService(deps);

  const generatePath = fastifyPath(generationEndpoints.generate.path);
  // A send's session is read with its context, before any hook awaits the viewer (preHandlers).
  readsOwnSession(auth, "POST", generatePath);
  app.addHook("preValidation", async (req) => {
    if (req.routeOptions.url === generatePath && req.method === "POST") await readContextAhead(db, auth, req);
  });
  // Signed-in viewers only (guests too), checked before the input is read.
  app.addHook("preHandler", async (req) => {
    await requireViewer(auth, req);
  });

  /** The one generation call (spec §7): JSON errors before anything starts, then an event stream. */
  route(app, generationEndpoints.generate, async ({ req, reply, body }) => {
    const viewer = await requireViewer(auth, req);
    const started = await generations.start(viewer, body, contextReadAhead(req, body.conversation_id));
    // The place in line is a hint for the waiting screen; not knowing it must not fail the reply.
    const waiting = { id: started.generationId, capacityKey: started.capacityKey };
    const firstPlace = await placeOf(db, waiting, started.slots, started.position).catch(() => ({
      position: 0,
      timeLeftSeconds: 0,
    }));
    let out: EventStreamWriter;
    const tell = (place: { position: number; timeLeftSeconds: number }) =>
      out.send({
        type: "queued",
        generation_id: started.generationId,
        position: place.position,
        time_left_s: place.timeLeftSeconds,
      });
    try {
      out = openEventStream(reply);
      // The head, `queued` and `started` leave in one write (each write is a trip through the
      // kernel's network stack, a good part of an accept's CPU), before the line is woken.
      reply.raw.cork();
      tell(firstPlace);
      // `started` as published (no read of the bus before it); the stream is piped after its id.
      out.send(started.started.event, started.started.id);
      out.flush();
      reply.raw.uncork();
    } finally {
      // Stored and announced: it goes to the line whatever became of this request.
      started.wake();
    }
    // While it waits, the place is told again as replies ahead of it start.
    const stopTelling = keepPlaceFresh(db, waiting, started.slots, tell);
    try {
      // Its first token means a worker has it: places are no longer news.
      const sending: typeof out = {
        ...out,
        send: (event, id) => {
          if (event.type !== "queued" && event.type !== "started") stopTelling();
          out.send(event, id);
        },
      };
      await pipeGeneration(bus, started.generationId, started.started.id, sending);
    } finally {
      stopTelling();
    }
    return reply;
  });

  /** Resume after a dropped connection or a reload: everything after Last-Event-ID. */
  route(app, generationEndpoints.events, async ({ req, reply, params, query }) => {
    const viewer = await requireViewer(auth, req);
    const generation = await findGeneration(db, params.id);
    const conversation = generation ? await findConversation(db, generation.conversationId) : null;
    assertOwnsConversation(viewer, conversation);
    if (!generation) return reply;
    // The header is the browser's (or our client's) resume point; checked like the query's.
    const header = req.headers["last-event-id"];
    const after = header === undefined ? (query.after ?? "0") : parse(generationEventId, header);
    const out = openEventStream(reply);
    if (!FINAL.has(generation.status)) {
      await pipeGeneration(bus, generation.id, after, out);
      return reply;
    }
    // Finished: its events are kept for a while; once they have expired the stored reply says everything.
    const replayed = await pipeGeneration(bus, generation.id, after, out, REPLAY_WAIT_MS);
    if (!replayed) out.send(await storedDone(db, generation, conversation));
    out.end();
    return reply;
  });

  /** Stop keeps what was written; the worker (in whichever process) hears it through the bus. */
  route(app, generationEndpoints.stop, async ({ req, params }) => {
    const viewer = await requireViewer(auth, req);
    const generation = await findGeneration(db, params.id);
    assertOwnsConversation(viewer, generation ? await findConversation(db, generation.conversationId) : null);
    if (!generation || FINAL.has(generation.status)) return;
    // Still in line: closed here and now, so the slot it waited for goes to the next reply.
    if (await cancelWaiting(db, bus, generation.id)) return;
    await bus.notify(stopNotice(generation.id), { type: "stop" }, STOP_KEPT_S);
  });

  /** "Why did it say that": what the prompt behind a bot message held, for the chat's owner. */
  route(app, memoryEndpoints.prompt, async ({ req, params }) => {
    const viewer = await requireViewer(auth, req);
    assertPermission(viewer, "view_chat");
    const found = await latestPromptOf(db, viewer.id, params.id);
    if (!found) throw notFound("No prompt was recorded for this message.");
    return {
      ...promptReportFor(viewer, found.character, found.report),
      message_id: params.id,
      generated_at: found.createdAt.toISOString(),
      model_id: found.modelId,
    };
  });
}

/** A send's context, read with its session (readContextAhead). */
const readAhead = new WeakMap<
  FastifyRequest,
  { conversationId: string; read: Promise<AcceptContext | null> }
>();

/**
 * Reads the accept's context and the request's session in one statement, before the checks
 * (issue 15 item 4: the accept's one round trip before it stores). The context is keyed by the
 * conversation alone and holds nothing for the caller until the service's policy check has
 * passed on the viewer decided from the session (accounts' `viewerFromRead`, the lookup's own
 * rule). A request without a well-signed session cookie or a well-formed id reads nothing here:
 * its viewer is looked up the usual way.
 */
async function readContextAhead(db: Db, auth: Auth, req: FastifyRequest): Promise<void> {
  const id = (req.body as { conversation_id?: unknown } | null | undefined)?.conversation_id;
  if (!req.headers.cookie || !uuidParam.safeParse(id).success) return;
  const token = await verifiedSessionToken(auth, req);
  if (!token) return;
  const both = acceptContextWithSession(db, id as string, token);
  const read = both.then((found) => found?.context ?? null);
  // Unused when the session is not the chat's owner's: its failure is nobody's.
  read.catch(() => {});
  readAhead.set(req, { conversationId: id as string, read });
  viewerFromRead(
    auth,
    req,
    both.then((found) => found && { session: found.session, user: found.context.owner }),
  );
}

/** The context read ahead for this conversation, if it was. */
function contextReadAhead(
  req: FastifyRequest,
  conversationId: string,
): Promise<AcceptContext | null> | undefined {
  const ahead = readAhead.get(req);
  return ahead?.conversationId === conversationId ? ahead.read : undefined;
}
