import fs, { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { GenerationEvent } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { insertTestCharacter, sendInNewChat } from "../../../../test/chat.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../../test/harness.ts";

/**
 * The member's own model key routes their replies (accounts-billing-admin §2.2 advanced section):
 * two stand-in OpenAI-compatible servers, the server's and the member's, each recording the
 * Authorization header it was sent, so a test sees who wrote a reply and with which key.
 */
async function standIn(reply: string) {
  const seen: { authorization: string | undefined; model: unknown }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      seen.push({ authorization: req.headers.authorization, model: JSON.parse(body).model });
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: object, finish: string | null) =>
        res.write(
          `data: ${JSON.stringify({ id: "r", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      chunk({ role: "assistant", content: reply }, null);
      chunk({}, "stop");
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const KEY = "sk-member-secret-key-4242";
const done = (events: { event: GenerationEvent }[]) =>
  events.map((m) => m.event).find((e): e is Extract<GenerationEvent, { type: "done" }> => e.type === "done");

describe("replies through the member's own model key", () => {
  let h: TestHearth;
  let base: string;
  let hosted: Awaited<ReturnType<typeof standIn>>;
  let members: Awaited<ReturnType<typeof standIn>>;
  const logged: string[] = [];

  beforeAll(async () => {
    hosted = await standIn("From the server's model.");
    members = await standIn("From the member's own model.");
    const dir = mkdtempSync(path.join(tmpdir(), "hearth-member-model-"));
    const file = path.join(dir, "models.json");
    writeFileSync(
      file,
      JSON.stringify({
        models: [
          {
            id: "hosted",
            name: "Hosted",
            backend: { type: "openai", base_url: hosted.url, model: "hosted-model" },
          },
          // A model this server cannot load: hybrid members get their own key for it.
          {
            id: "absent",
            name: "Absent",
            backend: { type: "embedded", path: path.join(dir, "missing.gguf") },
          },
        ],
      }),
    );
    // Everything the server logs, at the most talkative level, to check the key never appears.
    const capture = (chunk: unknown) => {
      logged.push(typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8"));
    };
    for (const name of ["writeSync", "write"] as const) {
      const original = fs[name] as (...a: unknown[]) => unknown;
      vi.spyOn(fs, name).mockImplementation(((fd: unknown, chunk: unknown, ...rest: unknown[]) => {
        if (fd === 1 || fd === 2) capture(chunk);
        return original.call(fs, fd, chunk, ...rest);
      }) as never);
    }
    h = await startTestHearth({
      env: {
        HEARTH_MODELS_FILE: file,
        HEARTH_USER_LLM_BASE_URL: members.url,
        HEARTH_USER_LLM_MODEL: "members-model",
        HEARTH_LOG_LEVEL: "trace",
      },
    });
    base = await h.listen();
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await h.stop();
    await hosted.close();
    await members.close();
  });

  async function member(mode: "disabled" | "enabled" | "hybrid", key: string | null = KEY) {
    const u = await h.signUp();
    const res = await fetch(`${base}/api/users/me`, {
      method: "PATCH",
      headers: { cookie: u.cookie, "content-type": "application/json" },
      body: JSON.stringify({ openai_api_key: key, openai_mode: mode }),
    });
    expect(res.status).toBe(200);
    return u;
  }
  /** `modelId` null: the request names no model. */
  async function reply(u: { cookie: string; id: string }, modelId: string | null = "hosted") {
    const character = await insertTestCharacter(h.database.db, u.id);
    const events = await sendInNewChat(
      base,
      u.cookie,
      character.id,
      "Hello",
      modelId ? { model_id: modelId } : {},
    );
    return done(events)?.message?.content;
  }

  it("disabled, or no key: the server's model, and the member's key is never sent", async () => {
    const before = members.seen.length;
    expect(await reply(await member("disabled"))).toBe("From the server's model.");
    expect(await reply(await member("enabled", null))).toBe("From the server's model.");
    expect(members.seen.length).toBe(before);
    expect(hosted.seen.every((r) => r.authorization !== `Bearer ${KEY}`)).toBe(true);
  });

  it("enabled: every reply goes to the member's base URL with their key and the configured model", async () => {
    const hostedBefore = hosted.seen.length;
    expect(await reply(await member("enabled"))).toBe("From the member's own model.");
    expect(members.seen.at(-1)).toEqual({ authorization: `Bearer ${KEY}`, model: "members-model" });
    expect(hosted.seen.length).toBe(hostedBefore);
  });

  it("hybrid: the server's model while it is free and serves the model; the member's key for one it cannot", async () => {
    const u = await member("hybrid");
    const membersBefore = members.seen.length;
    expect(await reply(u, "hosted")).toBe("From the server's model.");
    expect(members.seen.length).toBe(membersBefore);
    expect(await reply(u, "absent")).toBe("From the member's own model.");
    expect(members.seen.at(-1)?.authorization).toBe(`Bearer ${KEY}`);
  });

  it("a premium member's chats follow the same rule", async () => {
    const u = await member("enabled");
    await updateUser(h.database.db, u.id, { role: "premium", status: "active" });
    expect(await reply(u)).toBe("From the member's own model.");
  });

  it("a request naming no model uses the member's default model from the Settings page", async () => {
    const u = await member("hybrid");
    const put = await fetch(`${base}/api/users/me/default-model`, {
      method: "PUT",
      headers: { cookie: u.cookie, "content-type": "application/json" },
      body: JSON.stringify({ model_id: "absent" }),
    });
    expect(put.status).toBe(200);
    // "absent" cannot be served here, so hybrid answers with the member's key: the default was used.
    expect(await reply(u, null)).toBe("From the member's own model.");
    const plain = await member("hybrid");
    expect(await reply(plain, null)).toBe("From the server's model.");
  });

  it("the logs never contain the key", () => {
    const all = logged.join("");
    // The capture works: requests were logged at trace level.
    expect(all).toContain("/api/users/me");
    expect(all).not.toContain(KEY);
  });
});
