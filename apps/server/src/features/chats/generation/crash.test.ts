import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ConversationCreated, GenerationEvent, MessagePage } from "@hearth/contract";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { insertTestCharacter, readSse, tokensOf } from "../../../../test/chat.ts";
import { createTestDatabase, TEST_POOL_MAX, TEST_REDIS_URL } from "../../../../test/databases.ts";
import { TEST_MODEL_PATH } from "../../../../test/model.ts";
import { repoRoot } from "../../../config.ts";
import { updateUser } from "../../accounts/queries.ts";
import { messages } from "../schema.ts";

/** A real `hearth start` process on the given database; answers its address once it serves. */
async function startProcess(
  databaseUrl: string,
  dataDir: string,
  extraEnv: Record<string, string>,
): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, [path.join(repoRoot(), "apps/server/bin/hearth.mjs"), "start"], {
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      HEARTH_DB_POOL: String(TEST_POOL_MAX),
      HEARTH_DATA_DIR: dataDir,
      HEARTH_LOG_LEVEL: "info",
      HEARTH_SEED_DEMO: "false",
      LLM_MODEL: TEST_MODEL_PATH,
      LLM_THREADS: "1",
      ...extraEnv,
    },
  });
  const base = await new Promise<string>((resolve, reject) => {
    let buffer = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const match = buffer.match(/"address":"(http:\/\/[^"]+)".*"msg":"Hearth is running"/);
      if (match?.[1]) resolve(match[1]);
    });
    let errors = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on("exit", (code) =>
      reject(new Error(`hearth exited with ${code}: ${buffer.slice(-2000)}${errors}`)),
    );
  });
  return { child, base };
}

/**
 * Decision 015: tokens reach the client before their batch is stored. On Redis the stream keeps
 * them, and recovery gives the reply everything the client saw; on the in-process bus a crash
 * loses at most the last batch interval, so stored and seen text are each a prefix of the other.
 */
const buses: Record<string, () => Record<string, string>> = {
  "in-process": () => ({}),
  redis: () => ({
    REDIS_URL: TEST_REDIS_URL,
    HEARTH_REDIS_PREFIX: `hearth-crash-${randomBytes(4).toString("hex")}`,
    // Another process closes a dead worker's reply once its heartbeat is this old.
    HEARTH_WORKER_STALE_S: "2",
  }),
};
const consistent = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);

describe.each(Object.keys(buses))("a crash in the middle of a reply (%s bus)", (kind) => {
  const env = (buses[kind] as () => Record<string, string>)();
  const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-crash-"));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) c.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("loses neither the user's message nor what was generated, and the chat stays usable", async () => {
    const testDb = await createTestDatabase("postgres");
    const first = await startProcess(testDb.url as string, dataDir, env);
    children.push(first.child);

    const signUp = await fetch(`${first.base}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: first.base },
      body: JSON.stringify({ email: "crash@example.com", password: "correct horse battery", name: "Sam" }),
    });
    const cookie = String(signUp.headers.get("set-cookie")).split(";")[0] as string;
    const userId = ((await signUp.json()) as { user: { id: string } }).user.id;
    await updateUser(testDb.database.db, userId, { role: "premium", status: "active" });
    const character = await insertTestCharacter(testDb.database.db, userId);
    const call = (base: string, method: string, p: string, body?: unknown) =>
      fetch(`${base}${p}`, {
        method,
        // Like the browser: state-changing requests name Hearth's own origin.
        headers: { cookie, "content-type": "application/json", origin: base },
        body: body ? JSON.stringify(body) : undefined,
      });

    // Killed the moment the first words reach us. On a loaded machine the tiny model may have
    // finished its reply before the client read its first token: then the kill came too late to
    // test anything, and the scenario is run again in a new chat (the session is the database's).
    let crashed = first;
    let conversationId = "";
    let seen: Awaited<ReturnType<typeof readSse>> = [];
    let started: Extract<GenerationEvent, { type: "started" }> | undefined;
    let stored: typeof messages.$inferSelect | undefined;
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1) {
        crashed = await startProcess(testDb.url as string, dataDir, env);
        children.push(crashed.child);
      }
      const { conversation } = (await (
        await call(crashed.base, "POST", "/api/conversations", { character_id: character.id })
      ).json()) as ConversationCreated;
      conversationId = conversation.id;
      const victim = crashed.child;
      seen = await readSse(
        await call(crashed.base, "POST", "/api/generate", {
          conversation_id: conversation.id,
          action: "send",
          content: "Tell me everything about maps.",
          settings: { max_new_tokens: 300 },
        }),
        (m) => {
          if (m.event.type === "token") victim.kill("SIGKILL");
          return m.event.type === "token";
        },
      );
      await new Promise((resolve) =>
        victim.exitCode !== null || victim.signalCode !== null ? resolve(null) : victim.once("exit", resolve),
      );
      started = seen.find((m) => m.event.type === "started")?.event as typeof started;
      if (!started?.message_id) break;
      // Straight after the crash, the database already holds both turns.
      [stored] = await testDb.database.db.select().from(messages).where(eq(messages.id, started.message_id));
      if (stored?.state !== "complete" || attempt === 3) break;
    }
    const received = tokensOf(seen);
    expect(received.length).toBeGreaterThan(0);
    expect(stored).toBeDefined();
    expect(consistent(stored?.content ?? "", received)).toBe(true);
    expect(started?.user_message?.content).toBe("Tell me everything about maps.");

    const second = await startProcess(testDb.url as string, dataDir, env);
    children.push(second.child);
    // With Redis the second process closes the reply once the dead worker's heartbeat is stale.
    const deadline = Date.now() + 20_000;
    let page: MessagePage;
    do {
      page = (await (
        await call(second.base, "GET", `/api/conversations/${conversationId}/messages`)
      ).json()) as MessagePage;
      if (page.messages[2]?.state !== "streaming") break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    } while (Date.now() < deadline);
    expect(page.messages.map((m) => m.role)).toEqual(["bot", "user", "bot"]);
    expect(page.messages[1]?.content).toBe("Tell me everything about maps.");
    const partial = page.messages[2];
    expect(partial?.state).toBe("interrupted");
    if (kind === "redis") expect(partial?.content.startsWith(received)).toBe(true);
    else expect(consistent(partial?.content ?? "", received)).toBe(true);

    // The conversation is not left locked: the next message gets a reply.
    const next = await readSse(
      await call(second.base, "POST", "/api/generate", {
        conversation_id: conversationId,
        action: "send",
        content: "Still there?",
      }),
    );
    expect(next.at(-1)?.event.type).toBe("done");

    second.child.kill("SIGTERM");
    await new Promise((resolve) => second.child.once("exit", resolve));
    await testDb.drop();
  });
});
