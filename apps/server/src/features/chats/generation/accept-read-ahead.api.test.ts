import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, openTestChat, readSse } from "../../../../test/chat.ts";
import { startTestHearth, type TestHearth } from "../../../../test/harness.ts";
import { watchStatements } from "../../../../test/statements.ts";
import { sessions } from "../../accounts/schema.ts";
import { messages } from "../schema.ts";

const isAcceptContext = (text: string) =>
  text.includes('"daily_usage"') && text.includes('"blocked_creators"');
const withSession = (text: string) => isAcceptContext(text) && text.includes('left join "sessions"');
/** accounts' own lookup (session-lookup.ts), or better-auth's. */
const isSessionLookup = (text: string) => /from "?sessions"? /.test(text) && !isAcceptContext(text);

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A send reads its session and its chat's context in one statement, before its checks (issue 15
 * item 4: one round trip before it stores). The context is read for the conversation alone and
 * the session whoever's it is, so these check that the viewer decided from them is the one the
 * usual lookup would decide: the chat's owner only, never a signed-out, expired or forged
 * session, and better-auth still refreshes a session due for it.
 */
describe.each(["pglite", "postgres"] as const)(
  "the accept's session and context in one read (%s)",
  (driver) => {
    let h: TestHearth;
    let base: string;

    beforeAll(async () => {
      h = await startTestHearth({ driver });
      base = await h.listen();
    });
    afterAll(() => h.stop());

    async function chatOf(name: string) {
      const user = await h.signUp({ name });
      const character = await insertTestCharacter(h.database.db, user.id);
      return { user, send: await openTestChat(base, user.cookie, character.id) };
    }
    const generate = (cookie: string | undefined, body: unknown) =>
      fetch(`${base}/api/generate`, {
        method: "POST",
        headers: { ...(cookie ? { cookie } : {}), "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const stored = async (conversationId: string) =>
      (
        await h.database.db
          .select({ content: messages.content })
          .from(messages)
          .where(eq(messages.conversationId, conversationId))
      ).map((m) => m.content);
    /** Every statement sent while `run` runs, sorted as the checks need them. */
    async function statementsOf(run: () => Promise<void>) {
      const combined = watchStatements(h.database.db, withSession);
      const lookups = watchStatements(h.database.db, isSessionLookup);
      const contexts = watchStatements(h.database.db, isAcceptContext);
      try {
        await run();
      } finally {
        contexts.stop();
        lookups.stop();
        combined.stop();
      }
      return { combined: combined.seen, lookups: lookups.seen, contexts: contexts.seen };
    }

    it("reads the session with the context, and looks up nothing else before storing", async () => {
      const { send } = await chatOf("Ahead");
      const seen = await statementsOf(async () => {
        const res = await send("Are you there?");
        expect(res.status).toBe(200);
        const events = await readSse(res, (m) => m.event.type === "done");
        expect(events.map((m) => m.event.type)).toContain("done");
      });
      expect(seen.combined).toHaveLength(1);
      expect(seen.lookups).toHaveLength(0);
      expect(seen.contexts).toHaveLength(1);
    });

    it("answers another member's chat with 404 and stores nothing in it", async () => {
      const owner = await chatOf("Owner");
      const other = await chatOf("Other");
      const res = await generate(other.user.cookie, {
        conversation_id: owner.send.conversationId,
        action: "send",
        content: "Let me in",
      });
      expect(res.status).toBe(404);
      expect(await stored(owner.send.conversationId)).not.toContain("Let me in");
    });

    it("refuses a signed-out, an expired and a forged session with 401, storing nothing", async () => {
      const signedOut = await chatOf("Gone");
      const out = await fetch(`${base}/api/auth/sign-out`, {
        method: "POST",
        headers: { cookie: signedOut.user.cookie, "content-type": "application/json", origin: base },
        body: "{}",
      });
      expect(out.status).toBe(200);
      const expired = await chatOf("Late");
      await h.database.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(sessions.userId, expired.user.id));
      const forged = await chatOf("Forged");
      const forgedCookie = forged.user.cookie.replace(/\.[^.;]+/, ".AAAA");
      for (const [chat, cookie] of [
        [signedOut, signedOut.user.cookie],
        [expired, expired.user.cookie],
        [forged, forgedCookie],
      ] as const) {
        const res = await generate(cookie, {
          conversation_id: chat.send.conversationId,
          action: "send",
          content: "Still me",
        });
        expect(res.status, chat.user.email).toBe(401);
        expect(await stored(chat.send.conversationId)).not.toContain("Still me");
      }
    });

    it("leaves a session due for its daily refresh to better-auth, which moves its expiry on", async () => {
      const { user, send } = await chatOf("Refresh");
      // Two days old: better-auth refreshes a session once it is a day old.
      const dueAt = new Date(Date.now() + 30 * DAY_MS - 2 * DAY_MS);
      await h.database.db.update(sessions).set({ expiresAt: dueAt }).where(eq(sessions.userId, user.id));
      const seen = await statementsOf(async () => {
        const res = await send("Still here");
        expect(res.status).toBe(200);
        await readSse(res, (m) => m.event.type === "done");
      });
      expect(seen.lookups.length).toBeGreaterThan(0);
      const [session] = await h.database.db
        .select({ expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(eq(sessions.userId, user.id));
      expect(session?.expiresAt.getTime()).toBeGreaterThan(dueAt.getTime() + DAY_MS);
    });

    it("reads no context for a request without a session cookie or with a malformed id", async () => {
      const { user, send } = await chatOf("Nothing");
      const seen = await statementsOf(async () => {
        const anonymous = await generate(undefined, {
          conversation_id: send.conversationId,
          action: "send",
          content: "Hi",
        });
        expect(anonymous.status).toBe(401);
        const malformed = await generate(user.cookie, {
          conversation_id: "not-an-id",
          action: "send",
          content: "Hi",
        });
        expect(malformed.status).toBe(400);
        // A well-formed id of no chat is read (with the session) and answered 404 like any other.
        const missing = await generate(user.cookie, {
          conversation_id: randomUUID(),
          action: "send",
          content: "Hi",
        });
        expect(missing.status).toBe(404);
      });
      expect(seen.contexts).toHaveLength(1);
    });
  },
);
