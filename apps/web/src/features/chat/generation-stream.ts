import {
  type ApiError,
  type EndpointInput,
  type GenerationEvent,
  generationEndpoints,
  pathOf,
} from "@hearth/contract";
import { ApiRequestError } from "../../lib/api.ts";
import { readSse } from "./sse.ts";

/**
 * One generation's event stream, from POST /api/generate or from a resume of a running one
 * (GET /api/generations/{id}/events with Last-Event-ID). A connection that drops before the
 * final event is picked up again where it stopped, so a reply survives a network blip.
 */

/** Where a generation starts and where a running one resumes: the contract's declarations. */
const { generate, events: resume } = generationEndpoints;

export interface GenerationStreamOptions {
  /** Starts a new generation. */
  request?: EndpointInput<typeof generate>["body"];
  /** Or follows one already running (a chat opened while its reply is being written). */
  generationId?: string;
  signal: AbortSignal;
  onEvent: (event: GenerationEvent) => void;
  /** True while the connection is being re-established, false once events flow again. */
  onReconnecting?: (reconnecting: boolean) => void;
}

export type StreamEnd = "finished" | "aborted";

/** How many reconnects in a row before giving up, and the waits between them. */
const maxReconnects = 8;
const backoffMs = (attempt: number) => Math.min(500 * 2 ** attempt, 5_000);
/**
 * A connection that has said nothing for this long is treated as dead (mobile networks drop
 * silently when they switch). Reconnecting loses nothing, so erring early costs little.
 */
const idleTimeoutMs = 45_000;

const jsonHeaders = { accept: "text/event-stream", "content-type": "application/json" };

export function connectionLost(): ApiRequestError {
  const offline = typeof navigator !== "undefined" && !navigator.onLine;
  return new ApiRequestError(
    0,
    "unavailable",
    offline ? "You're offline. Check your connection and try again." : "Lost the connection to the server.",
  );
}

async function errorOf(response: Response): Promise<ApiRequestError> {
  let payload: Partial<ApiError> = {};
  try {
    payload = (await response.json()) as Partial<ApiError>;
  } catch {
    // Not JSON: the status says enough.
  }
  return new ApiRequestError(
    response.status,
    payload.code ??
      (response.status === 429 ? "limitReached" : response.status >= 500 ? "internal" : "invalidRequest"),
    payload.message || response.statusText || `The server answered with status ${response.status}.`,
    payload.issues,
    // The finer kind (imageTrainingNeeded, planRequired) is what the Image button answers by.
    payload.error_type,
  );
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        done();
      },
      { once: true },
    );
  });
}

function isTerminal(event: GenerationEvent): boolean {
  return event.type === "done" || event.type === "error";
}

/**
 * Runs until the generation's final event (done or error) was delivered ("finished") or the
 * signal aborted ("aborted"). Throws an ApiRequestError when the server refused the request
 * (a JSON error instead of a stream) or the connection could not be re-established.
 */
export async function runGenerationStream(options: GenerationStreamOptions): Promise<StreamEnd> {
  const { request, signal, onEvent, onReconnecting } = options;
  let generationId = options.generationId ?? null;
  let lastEventId: string | null = null;
  let attempt = 0;
  let posted = false;

  while (!signal.aborted) {
    const connection = new AbortController();
    const abort = () => connection.abort();
    signal.addEventListener("abort", abort, { once: true });
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const activity = () => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => connection.abort(), idleTimeoutMs);
    };

    try {
      let response: Response;
      const first = Boolean(request) && !posted;
      try {
        if (first && request) {
          posted = true;
          response = await fetch(pathOf(generate.path, undefined), {
            method: generate.method,
            credentials: "include",
            headers: jsonHeaders,
            body: JSON.stringify(request),
            signal: connection.signal,
          });
        } else {
          if (!generationId) throw connectionLost(); // it dropped before the server named it
          response = await fetch(pathOf(resume.path, { id: generationId }), {
            method: resume.method,
            credentials: "include",
            headers: {
              accept: "text/event-stream",
              ...(lastEventId ? { "last-event-id": lastEventId } : {}),
            },
            signal: connection.signal,
          });
        }
      } catch (error) {
        if (signal.aborted) return "aborted";
        if (error instanceof ApiRequestError) throw error;
        // The POST itself failed: the server may never have seen it, so it is not replayed.
        if (!generationId) throw connectionLost();
        response = new Response(null, { status: 599 });
      }

      if (response.ok && response.body) {
        const type = response.headers.get("content-type") ?? "";
        if (!type.includes("text/event-stream")) throw await errorOf(response);
        activity();
        for await (const message of readSse(response.body, activity)) {
          if (message.id !== null) lastEventId = message.id;
          let event: GenerationEvent;
          try {
            event = JSON.parse(message.data) as GenerationEvent;
          } catch {
            continue; // not an event of ours (a keep-alive with data, say)
          }
          if (attempt > 0) {
            attempt = 0;
            onReconnecting?.(false);
          }
          if (event.type === "queued" || event.type === "started") generationId = event.generation_id;
          onEvent(event);
          if (isTerminal(event)) return "finished";
        }
      } else if (first || (response.status !== 599 && response.status < 500)) {
        // Refused: a first request's error (limit, access, conflict), or a resume of a generation
        // the server no longer knows (it finished and expired).
        throw await errorOf(response);
      }
    } catch (error) {
      if (signal.aborted) return "aborted";
      if (error instanceof ApiRequestError) throw error;
      // A read that failed mid-stream: reconnect below.
    } finally {
      clearTimeout(idleTimer);
      signal.removeEventListener("abort", abort);
    }

    if (signal.aborted) return "aborted";
    // The stream ended or broke before the final event: resume from the last id seen.
    if (!generationId || attempt >= maxReconnects) throw connectionLost();
    onReconnecting?.(true);
    await wait(backoffMs(attempt), signal);
    attempt++;
    if (typeof navigator !== "undefined" && !navigator.onLine) {
      await new Promise<void>((online) => {
        const done = () => {
          window.removeEventListener("online", done);
          online();
        };
        window.addEventListener("online", done);
        signal.addEventListener("abort", done, { once: true });
      });
    }
  }
  return "aborted";
}
