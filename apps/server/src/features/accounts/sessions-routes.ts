import { type ActiveSession, accountEndpoints } from "@hearth/contract";
import { and, desc, eq, gt, isNull, ne } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.ts";
import { forbidden, notFound, unauthorized } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import type { Auth } from "./auth.ts";
import { sessions } from "./schema.ts";
import { toHeaders } from "./viewer.ts";

/**
 * The account's signed-in devices (profile settings). Sessions live only in the database (no
 * cookie cache, no secondary storage), so deleting a row signs that device out at its next request.
 * Answers carry the session's id, never its token (the token is the cookie's secret). An
 * administrator's view of the account (impersonation.ts) is not the member's device: not listed.
 */
export async function sessionsRoutes(app: FastifyInstance, { db, auth }: { db: Db; auth: Auth }) {
  route(app, accountEndpoints.listSessions, async ({ req }) => {
    const current = await currentSession(auth, req, "read");
    const rows = await db
      .select()
      .from(sessions)
      .where(
        and(
          eq(sessions.userId, current.userId),
          gt(sessions.expiresAt, new Date()),
          isNull(sessions.impersonatedBy),
        ),
      )
      .orderBy(desc(sessions.updatedAt), desc(sessions.id));
    return {
      sessions: rows.map(
        (s): ActiveSession => ({
          id: s.id,
          user_agent: s.userAgent,
          ip_address: s.ipAddress,
          created_at: s.createdAt.toISOString(),
          last_active_at: s.updatedAt.toISOString(),
          current: s.id === current.id,
        }),
      ),
    };
  });

  route(app, accountEndpoints.revokeSession, async ({ req, params: { id } }) => {
    const current = await currentSession(auth, req);
    // Another account's session id answers the same as a missing one: ids are not disclosed.
    const gone = await db
      .delete(sessions)
      .where(and(eq(sessions.id, id), eq(sessions.userId, current.userId)))
      .returning({ id: sessions.id });
    if (gone.length === 0) throw notFound("No such session.");
    return undefined;
  });

  route(app, accountEndpoints.revokeOtherSessions, async ({ req }) => {
    const current = await currentSession(auth, req);
    const gone = await db
      .delete(sessions)
      .where(and(eq(sessions.userId, current.userId), ne(sessions.id, current.id)))
      .returning({ id: sessions.id });
    return { revoked: gone.length };
  });
}

/** The session behind this request; an administrator viewing as a user may look, not sign them out. */
async function currentSession(
  auth: Auth,
  req: FastifyRequest,
  use: "read" | "write" = "write",
): Promise<{ id: string; userId: string }> {
  const found = await auth.api.getSession({ headers: toHeaders(req.headers) });
  if (!found) throw unauthorized();
  const session = found.session as { id: string; userId: string; impersonatedBy?: string | null };
  if (session.impersonatedBy && use === "write") throw forbidden("Viewing as this user is read-only.");
  return { id: session.id, userId: session.userId };
}
