import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import type { AdminModels, ApiError, LocalServerList, ModelList } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter, sendInNewChat, tokensOf } from "../../../test/chat.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { startRecordingServer } from "../../../test/recording-openai-server.ts";
import { probeLocalServers } from "./local-servers.ts";
import { closedPort } from "./test-gguf-server.ts";

/** A server that accepts connections and never answers: the probe must not wait on it. */
async function startSilentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe("model servers on this machine", () => {
  let h: TestHearth;
  let standIn: Awaited<ReturnType<typeof startRecordingServer>>;
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  let closed: string;
  let admin: { cookie: string; id: string };
  let member: { cookie: string; id: string };

  beforeAll(async () => {
    standIn = await startRecordingServer("*waves* Hello from the stand-in.", [
      "stand-in-chat",
      "nomic-embed-text",
    ]);
    silent = await startSilentServer();
    closed = `http://127.0.0.1:${await closedPort()}/v1`;
    h = await startTestHearth({ env: { HEARTH_LOCAL_SERVERS: [standIn.url, silent.url, closed].join(",") } });
    admin = await h.signUp({ name: "Operator" });
    await updateUser(h.database.db, admin.id, { is_admin: true });
    member = await h.signUp({ name: "Member" });
  });
  afterAll(async () => {
    await h?.stop();
    await standIn?.close();
    await silent?.close();
  });

  const call = (method: "GET" | "PUT" | "POST", url: string, cookie?: string, body?: unknown) =>
    h.app.inject({
      method,
      url,
      headers: {
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(cookie ? { cookie } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });

  it("the probe answers only the servers that list models, quickly, without their embedding models", async () => {
    const started = Date.now();
    const found = await probeLocalServers(
      [
        { name: "Stand-in", base_url: standIn.url },
        { name: "Silent", base_url: silent.url },
        { name: "Closed", base_url: closed },
      ],
      300,
    );
    expect(found).toEqual([{ name: "Stand-in", base_url: standIn.url, models: ["stand-in-chat"] }]);
    // The silent one is given up on after its timeout, not waited for.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("admins see the one command for a real model and the servers found; others may not ask", async () => {
    const overview = (await call("GET", "/api/admin/models", admin.cookie)).json<AdminModels>();
    expect(overview.active.is_demo).toBe(true);
    expect(overview.real_model_command).toMatch(/^npm run hearth -- models pull [\w.-]+ --use$/);

    const res = await call("GET", "/api/admin/models/local-servers", admin.cookie);
    expect(res.statusCode).toBe(200);
    const { servers } = res.json<LocalServerList>();
    expect(servers.map((s) => [s.base_url, s.models])).toEqual([[standIn.url, ["stand-in-chat"]]]);

    expect((await call("GET", "/api/admin/models/local-servers", member.cookie)).statusCode).toBe(403);
    expect((await call("GET", "/api/admin/models/local-servers")).statusCode).toBe(401);
    const choice = { base_url: standIn.url, model: "stand-in-chat" };
    expect((await call("PUT", "/api/admin/models/local-server", member.cookie, choice)).statusCode).toBe(403);
  });

  it("nothing is used unasked; an address or model the probe did not find is refused", async () => {
    const models = (await call("GET", "/api/models", member.cookie)).json<ModelList>();
    expect(models.models.map((m) => m.is_demo)).toEqual([true]);

    const elsewhere = await call("PUT", "/api/admin/models/local-server", admin.cookie, {
      base_url: "http://169.254.169.254/v1",
      model: "x",
    });
    expect(elsewhere.statusCode).toBe(404);
    const unknownModel = await call("PUT", "/api/admin/models/local-server", admin.cookie, {
      base_url: standIn.url,
      model: "nomic-embed-text",
    });
    expect(unknownModel.statusCode).toBe(400);
    expect(unknownModel.json<ApiError>().issues?.[0]?.path).toBe("model");
    const malformed = await call("PUT", "/api/admin/models/local-server", admin.cookie, { model: 7 });
    expect(malformed.statusCode).toBe(400);
    expect(standIn.requests).toHaveLength(0);
  });

  it("one click switches chats to the server's model, and choosing a model file switches back", async () => {
    const res = await call("PUT", "/api/admin/models/local-server", admin.cookie, {
      base_url: standIn.url,
      model: "stand-in-chat",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminModels>().active).toMatchObject({
      id: "stand-in-chat",
      backend: "openai-compatible",
      is_demo: false,
    });
    const models = (await call("GET", "/api/models", member.cookie)).json<ModelList>();
    expect(models.models).toEqual([expect.objectContaining({ id: "stand-in-chat", is_demo: false })]);

    // A chat now streams from the stand-in.
    const base = await h.listen();
    const character = await insertTestCharacter(h.database.db, member.id);
    const events = await sendInNewChat(base, member.cookie, character.id, "Hi!");
    expect(tokensOf(events)).toBe("*waves* Hello from the stand-in.");
    expect(standIn.requests.at(-1)?.model).toBe("stand-in-chat");

    const back = await call("PUT", "/api/admin/models/active", admin.cookie, { id: "hearth-tiny" });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json<AdminModels>().active.is_demo).toBe(true);
  });
});
