import { generateRequest, generationEvent, generationResumeQuery } from "../chats.ts";
import { endpoint, idParams } from "../endpoint.ts";

/**
 * Generating replies (apps/server/src/features/chats/generation): one call starts every generation and
 * answers its events as a server-sent event stream; a dropped client resumes it; stop keeps what
 * was written. Refusals (limits, access, a busy chat) are JSON errors before any stream opens.
 */
export const generationEndpoints = {
  generate: endpoint({
    method: "POST",
    path: "/api/generate",
    summary: "Send, regenerate, continue, resubmit or autopilot: queued, started, tokens, then done or error",
    tag: "Generation",
    access: "member",
    body: generateRequest,
    response: null,
    events: generationEvent,
  }),
  events: endpoint({
    method: "GET",
    path: "/api/generations/{id}/events",
    summary: "Resume a generation's events after Last-Event-ID (or ?after=); a finished one ends with done",
    tag: "Generation",
    access: "member",
    params: idParams,
    query: generationResumeQuery,
    response: null,
    events: generationEvent,
  }),
  stop: endpoint({
    method: "POST",
    path: "/api/generations/{id}/stop",
    summary: "Stop a generation, keeping what was written (the reply is marked stopped)",
    tag: "Generation",
    access: "member",
    params: idParams,
    response: null,
  }),
};
