import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.ts";
import type { Mailer } from "../../ports/mail.ts";
import { accounts, users, verifications } from "./schema.ts";

/**
 * Unlock links: when wrong passwords lock an account, its owner is mailed a link that clears
 * the lock. Only the hash of the link's token is stored, so a leaked table unlocks nothing.
 */

/** How long an unlock link works: the counting window of the lock it clears. */
export const UNLOCK_LINK_SECONDS = 24 * 60 * 60;

const identifierOf = (token: string) => `unlock-sign-in:${createHash("sha256").update(token).digest("hex")}`;

/** The web page that clears the lock (routes/unlock-sign-in.tsx) with the one-time token. */
export function unlockUrl(base: string, token: string): string {
  return `${base.replace(/\/$/, "")}/unlock-sign-in?token=${encodeURIComponent(token)}`;
}

/** A fresh one-time unlock token for this account's e-mail; answers the token. */
export async function issueUnlockToken(db: Db, email: string, now = new Date()): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  await db.insert(verifications).values({
    id: crypto.randomUUID(),
    identifier: identifierOf(token),
    value: email,
    expiresAt: new Date(now.getTime() + UNLOCK_LINK_SECONDS * 1000),
  });
  return token;
}

/** Uses a token up, in one statement (a link followed twice at once unlocks once); answers its e-mail. */
export async function consumeUnlockToken(db: Db, token: string, now = new Date()): Promise<string | null> {
  const [row] = await db
    .delete(verifications)
    .where(and(eq(verifications.identifier, identifierOf(token)), gt(verifications.expiresAt, now)))
    .returning({ email: verifications.value });
  return row?.email ?? null;
}

export interface UnlockMailOptions {
  db: Db;
  mailer: Mailer;
  brand: string;
  /** PUBLIC_URL, else null: the address the locking request came to. */
  publicUrl: string | null;
  log: FastifyBaseLogger;
}

/**
 * Mails the owner an unlock link, without holding up the answer to the locking attempt (whose
 * timing would otherwise tell that the account exists). A failure is logged, not thrown.
 */
export function mailUnlockLink(opts: UnlockMailOptions, email: string, linkBase: string | undefined): void {
  void (async () => {
    const base = opts.publicUrl ?? linkBase;
    if (!base || !(await signsInWithPassword(opts.db, email))) return;
    const url = unlockUrl(base, await issueUnlockToken(opts.db, email));
    await opts.mailer.send({
      to: email,
      subject: `Your ${opts.brand} sign-in is locked for a while`,
      text: `Someone typed a wrong password for your ${opts.brand} account several times, so signing in is locked for a while.\n\nIf it was you, this link unlocks it now (it works once, for 24 hours):\n${url}\n\nIf it was not you, your password is still safe; choosing a longer one makes guessing harder.\n`,
    });
  })().catch((error: unknown) => opts.log.error({ err: error }, "could not mail the unlock link"));
}

/** Whether an account with this e-mail signs in with a password (guesses at others lock nobody's mail). */
async function signsInWithPassword(db: Db, email: string): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(accounts, and(eq(accounts.userId, users.id), eq(accounts.providerId, "credential")))
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  return rows.length > 0;
}

/**
 * The e-mail of the account a password reset token belongs to, when it is one: a reset proves
 * the owner reads that mailbox as an unlock link does, so it ends the account's lock too.
 */
export async function resetTokenOwner(db: Db, token: unknown): Promise<string | null> {
  if (typeof token !== "string" || token.length === 0 || token.length > 200) return null;
  const [row] = await db
    .select({ email: users.email })
    .from(verifications)
    .innerJoin(users, eq(users.id, verifications.value))
    .where(eq(verifications.identifier, `reset-password:${token}`))
    .limit(1);
  return row ? row.email.toLowerCase() : null;
}
