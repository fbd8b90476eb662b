import { characterEndpoints } from "@hearth/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { route } from "../../http/route.ts";
import { readUpload } from "../../http/upload.ts";
import { getViewer } from "../accounts/index.ts";
import { answerOnce } from "../idempotency/index.ts";
import { MAX_FILE_BYTES } from "./cards/limits.ts";
import { importCard } from "./import.ts";
import { assertCanCreate, assertCanExport } from "./policy.ts";
import { toCharacter } from "./present.ts";
import { type CharactersRouteDeps, guardedRoute, loadCharacter } from "./route-context.ts";

/** Character card files (Tavern V1/V2/V3 as PNG, JSON or CharX): import and export. */
export async function cardRoutes(app: FastifyInstance, deps: CharactersRouteDeps) {
  const { service, storage, cards } = deps;
  const creator = async (req: FastifyRequest) => assertCanCreate(await getViewer(deps.auth, req));

  // A multipart body is read by the handler itself, after the viewer is checked.
  // A retry with the same Idempotency-Key is answered the first import's bot, not a second one.
  route(app, characterEndpoints.import, async ({ req, reply }) => {
    const viewer = await creator(req);
    const upload = await readUpload(req, MAX_FILE_BYTES);
    const keyed = { db: deps.db, req, reply, userId: viewer.id, def: characterEndpoints.import };
    return answerOnce({ ...keyed, parts: [upload.filename, upload.data] }, async () => {
      const { row, report } = await importCard({ service, parseCard: cards.parse }, viewer, upload);
      return {
        prompt_cost: await deps.promptCost({
          name: row.name,
          greeting: row.greeting,
          persona: row.persona,
          personality: row.personality,
          scenario: row.scenario,
          dialogue: row.dialogue,
          system_prompt: row.systemPrompt,
          post_history_instructions: row.postHistoryInstructions,
        }),
        character: toCharacter(
          { character: row, creatorUsername: viewer.username, isFavorite: false },
          viewer,
          storage,
        ),
        report,
      };
    });
  });

  /** The editor prices the definition as it is typed, before anything is saved. */
  await guardedRoute(app, characterEndpoints.promptCost, creator, async ({ body }) => deps.promptCost(body));

  route(app, characterEndpoints.export, async ({ req, reply, query }) => {
    const { viewer, found } = await loadCharacter(deps, req);
    assertCanExport(viewer, found.character);
    const file = await cards.export(await service.exportable(found), query.format);
    return (
      reply
        .header("content-type", file.contentType)
        .header("content-disposition", contentDisposition(file.filename))
        // The file may hold a private definition: no shared caches.
        .header("cache-control", "private, no-store")
        .send(file.body)
    );
  });
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
