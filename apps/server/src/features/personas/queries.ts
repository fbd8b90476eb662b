import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type NewPersonaRow, type PersonaRow, personas } from "./schema.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A malformed id cannot name a row; asking PostgreSQL would be a cast error, not a miss. */
export const isPersonaId = (id: string | null | undefined): id is string => Boolean(id && UUID.test(id));

/** The user's personas, the default first, then by name; `q` is a case-insensitive name prefix. */
export function listPersonas(db: Db, userId: string, q?: string): Promise<PersonaRow[]> {
  const prefix = q ? `${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  return db
    .select()
    .from(personas)
    .where(
      and(
        eq(personas.userId, userId),
        // lower() on both sides in SQL, so the database's case rules apply to the name and the query alike.
        prefix ? sql`lower(${personas.name}) like lower(${prefix})` : undefined,
      ),
    )
    .orderBy(desc(personas.isDefault), sql`lower(${personas.name})`, asc(personas.id));
}

/** The persona if it is this user's, else null (another user's persona is the same as none). */
export async function findPersona(db: Db, userId: string, id: string): Promise<PersonaRow | null> {
  if (!isPersonaId(id)) return null;
  const [row] = await db
    .select()
    .from(personas)
    .where(and(eq(personas.id, id), eq(personas.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function personaStats(tx: Db, userId: string): Promise<{ count: number; hasDefault: boolean }> {
  const [row] = await tx
    .select({
      count: sql<number>`count(*)::int`,
      hasDefault: sql<boolean>`coalesce(bool_or(${personas.isDefault}), false)`,
    })
    .from(personas)
    .where(eq(personas.userId, userId));
  return { count: Number(row?.count ?? 0), hasDefault: Boolean(row?.hasDefault) };
}

/** Whether another of the user's personas has this name, ignoring case. */
export async function nameTaken(tx: Db, userId: string, name: string, exceptId?: string): Promise<boolean> {
  const rows = await tx
    .select({ id: personas.id })
    .from(personas)
    .where(
      and(
        eq(personas.userId, userId),
        sql`lower(${personas.name}) = lower(${name})`,
        exceptId ? ne(personas.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function insertPersona(tx: Db, values: NewPersonaRow): Promise<PersonaRow> {
  const [row] = await tx.insert(personas).values(values).returning();
  if (!row) throw new Error("insert into personas returned no row");
  return row;
}

export async function updatePersona(
  tx: Db,
  userId: string,
  id: string,
  change: Partial<Pick<NewPersonaRow, "name" | "highlights" | "avatarKey" | "isDefault">>,
): Promise<PersonaRow | null> {
  const [row] = await tx
    .update(personas)
    .set({ ...change, updatedAt: new Date() })
    .where(and(eq(personas.id, id), eq(personas.userId, userId)))
    .returning();
  return row ?? null;
}

/** Clears the user's default flag (before another persona takes it, in the same transaction). */
export async function clearDefault(tx: Db, userId: string): Promise<void> {
  await tx
    .update(personas)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(and(eq(personas.userId, userId), eq(personas.isDefault, true)));
}

/** Deletes a persona unless it is the default; answers the deleted row. */
export async function deleteNonDefaultPersona(
  tx: Db,
  userId: string,
  id: string,
): Promise<PersonaRow | null> {
  const [row] = await tx
    .delete(personas)
    .where(and(eq(personas.id, id), eq(personas.userId, userId), eq(personas.isDefault, false)))
    .returning();
  return row ?? null;
}

/** Reads the row and holds it until the transaction ends (avatar swaps read the old key). */
export async function findPersonaForUpdate(tx: Db, userId: string, id: string): Promise<PersonaRow | null> {
  if (!isPersonaId(id)) return null;
  const [row] = await tx
    .select()
    .from(personas)
    .where(and(eq(personas.id, id), eq(personas.userId, userId)))
    .for("update");
  return row ?? null;
}

/** True for PostgreSQL's unique_violation on the named index (drizzle wraps driver errors in `cause`). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  for (let e = error as { code?: string; constraint?: string; cause?: unknown } | undefined; e; ) {
    if (e.code === "23505") return e.constraint === undefined || e.constraint === constraint;
    e = e.cause as typeof e;
  }
  return false;
}
