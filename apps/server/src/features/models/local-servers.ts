import type { LocalServerCandidate } from "../../config.ts";

/** A model server found answering on this machine. */
export interface FoundLocalServer extends LocalServerCandidate {
  /** Chat models it serves (its /v1/models list). */
  models: string[];
}

/** A closed port answers at once; a listening server that says nothing gets this long. */
const PROBE_TIMEOUT_MS = 800;

/** Asks each candidate for its model list at once; answers the ones that gave one. */
export async function probeLocalServers(
  candidates: readonly LocalServerCandidate[],
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<FoundLocalServer[]> {
  const answers = await Promise.all(
    candidates.map(async (candidate): Promise<FoundLocalServer | null> => {
      try {
        // The timeout covers the answer's body too: a server that stalls mid-answer is given up on.
        const res = await fetch(`${candidate.base_url}/models`, {
          signal: AbortSignal.timeout(timeoutMs),
          redirect: "error",
        });
        if (!res.ok) return null;
        const models = modelIds(await res.json());
        return models.length > 0 ? { ...candidate, models } : null;
      } catch {
        return null; // Nothing there (or not an OpenAI-compatible server): not offered.
      }
    }),
  );
  return answers.filter((found): found is FoundLocalServer => found !== null);
}

/** The ids of an OpenAI `/v1/models` answer (`{ data: [{ id }] }`), embedding models left out. */
function modelIds(body: unknown): string[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return [];
  return data
    .map((entry) => (entry as { id?: unknown } | null)?.id)
    .filter((id): id is string => typeof id === "string" && id.length > 0 && id.length <= 200)
    .filter((id) => !/embed/i.test(id))
    .slice(0, 50);
}
