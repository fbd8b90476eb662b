import { createHmac, timingSafeEqual } from "node:crypto";
import { guestEndpoints } from "@hearth/contract";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import { forbidden, unauthorized } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { Auth } from "./auth.ts";
import { users } from "./schema.ts";
import { startSession } from "./session-cookie.ts";
import { getViewer, toMe, viewerFromUser } from "./viewer.ts";

/**
 * A guest's id in local storage (chat-and-characters §1, §3; issue 17 item 5). The browser of a
 * guest keeps the guest's id and an HMAC of it under the install's secret; after its cookie is
 * cleared it sends both, and while the server still has that guest (not signed up since, not
 * deleted) a new session starts for the same guest, its chats and allowance intact. Without the
 * key nobody can take over a guest by its id.
 */

const keyOf = (secret: string, guestId: string) =>
  createHmac("sha256", secret).update(`hearth:guest-resume:${guestId}`).digest("hex");

const gone = () => unauthorized("That guest is no longer here. Continue as a new guest.");

export async function guestResumeRoutes(app: FastifyInstance, deps: { db: Db; auth: Auth; secret: string }) {
  route(app, guestEndpoints.key, async ({ req }) => {
    const viewer = await getViewer(deps.auth, req);
    if (!viewer) throw unauthorized();
    if (!viewer.isGuest) throw forbidden("Only guests have a guest key.");
    return { guest_id: viewer.id, key: keyOf(deps.secret, viewer.id) };
  });

  route(app, guestEndpoints.resume, async ({ body, reply }) => {
    const expected = Buffer.from(keyOf(deps.secret, body.guest_id), "hex");
    const given = Buffer.from(body.key, "hex");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw gone();
    const [row] = await deps.db.select().from(users).where(eq(users.id, body.guest_id)).limit(1);
    if (!row?.isAnonymous) throw gone();
    const viewer = viewerFromUser(row);
    await startSession(deps.auth, viewer.id, reply);
    return toMe(viewer);
  });
}
