import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, openTestChat, readSse } from "../../../../test/chat.ts";
import { startTestHearth, type TestHearth } from "../../../../test/harness.ts";
import { watchStatements } from "../../../../test/statements.ts";
import { messages } from "../schema.ts";

const isSessionLookup = (text: string) => text.includes('"sessions"."impersonated_by"');
const isAcceptContext = (text: string) =>
  text.includes('"daily_usage"') && text.includes('"blocked_creators"');

/**
 * A send's context is read beside its session lookup, not after it (issue 15 item 4: one round
 * trip off the accept's path). It is read for the conversation alone, so these check that the
 * read overlaps the lookup, that it still answers nobody but the chat's owner, and that a
 * request that could not pass (no session cookie, no well-formed id) reads nothing.
 */
describe.each(["pglite", "postgres"] as const)("the accept's context read ahead (%s)", (driver) => {
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

  /**
   * Holds every session lookup's answer until `release`, noting the context statements sent
   * before it: a context read that waited for the viewer would not be among them.
   */
  function holdSessionLookups() {
    const client = (h.database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } })
      .$client;
    const query = client.query;
    const sentWhileHeld: string[] = [];
    let released = false;
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const release = () => {
      released = true;
      open();
    };
    client.query = function (this: unknown, ...args: unknown[]) {
      const text = (typeof args[0] === "string" ? args[0] : (args[0] as { text?: string })?.text) ?? "";
      if (!released && isAcceptContext(text)) sentWhileHeld.push(text);
      const answer = query.apply(this, args);
      return isSessionLookup(text) ? gate.then(() => answer) : answer;
    };
    return {
      sentWhileHeld,
      release,
      stop() {
        client.query = query;
      },
    };
  }

  it("sends the context's statement while the session lookup is still unanswered", async () => {
    const { send } = await chatOf("Ahead");
    const hold = holdSessionLookups();
    try {
      const answer = send("Are you there?");
      await expect.poll(() => hold.sentWhileHeld.length).toBe(1);
      hold.release();
      const res = await answer;
      expect(res.status).toBe(200);
      const events = await readSse(res, (m) => m.event.type === "done");
      expect(events.map((m) => m.event.type)).toContain("done");
    } finally {
      hold.release();
      hold.stop();
    }
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
    const contents = await h.database.db
      .select({ content: messages.content })
      .from(messages)
      .where(eq(messages.conversationId, owner.send.conversationId));
    expect(contents.map((m) => m.content)).not.toContain("Let me in");
  });

  it("reads no context for a request without a session cookie or with a malformed id", async () => {
    const { user, send } = await chatOf("Nothing");
    const watch = watchStatements(h.database.db, isAcceptContext);
    try {
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
      // A well-formed id of no chat is read (ahead) and answered 404 like any other.
      const missing = await generate(user.cookie, {
        conversation_id: randomUUID(),
        action: "send",
        content: "Hi",
      });
      expect(missing.status).toBe(404);
      expect(watch.seen).toHaveLength(1);
    } finally {
      watch.stop();
    }
  });
});
