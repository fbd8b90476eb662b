import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { standinPng } from "./standin-png.ts";

/**
 * A stand-in ComfyUI server speaking the API its own clients use: `GET /ws?clientId=` (a
 * WebSocket: `status` on connect, then per run `execution_start`, `executing` per node,
 * `progress`, and `executing` with `node: null` at the end, or `execution_error`), `POST
 * /prompt` (`{ prompt, client_id }` → `{ prompt_id, number, node_errors }`, 400 with
 * `node_errors` when a node's input points at a node that is not there or a `{{placeholder}}`
 * was left in), `GET /history/{id}` and `GET /view?filename=&subfolder=&type=`. A run "makes"
 * the positive text's picture (standin-png.ts) after `delayMs` (or, with `hold`, when the test
 * calls `release()`); a prompt containing "CRASH"
 * fails with `execution_error`. Every queued workflow is recorded.
 */
type Node = { class_type: string; inputs: Record<string, unknown> };

export async function comfyUiStandin(opts: { delayMs?: number; hold?: boolean } = {}) {
  const workflows: Record<string, Node>[] = [];
  const sockets = new Map<string, WebSocket>();
  const history = new Map<string, { outputs: Record<string, unknown>; status: unknown }>();
  const files = new Map<string, Buffer>();
  let counter = 0;
  const held: (() => void)[] = [];

  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => resolve(body));
    });

  const send = (clientId: string, message: unknown) => sockets.get(clientId)?.send(JSON.stringify(message));

  const run = (promptId: string, clientId: string, workflow: Record<string, Node>) => {
    const sampler = Object.entries(workflow).find(([, n]) => n.class_type === "KSampler");
    const positiveRef = sampler?.[1].inputs.positive as [string, number] | undefined;
    const positive = String(workflow[positiveRef?.[0] ?? ""]?.inputs.text ?? "");
    const latent = Object.values(workflow).find((n) => n.class_type === "EmptyLatentImage");
    const save = Object.entries(workflow).find(([, n]) => n.class_type === "SaveImage");
    send(clientId, { type: "execution_start", data: { prompt_id: promptId, timestamp: Date.now() } });
    send(clientId, {
      type: "executing",
      data: { node: sampler?.[0] ?? "3", display_node: "3", prompt_id: promptId },
    });
    for (let value = 1; value <= 4; value++)
      send(clientId, { type: "progress", data: { value, max: 4, prompt_id: promptId, node: sampler?.[0] } });
    if (positive.includes("CRASH")) {
      send(clientId, {
        type: "execution_error",
        data: {
          prompt_id: promptId,
          node_id: sampler?.[0],
          exception_message: "CUDA out of memory",
          exception_type: "RuntimeError",
        },
      });
      history.set(promptId, { outputs: {}, status: { status_str: "error", completed: false } });
      return;
    }
    const filename = `hearth_${String(++counter).padStart(5, "0")}_.png`;
    files.set(
      filename,
      standinPng(positive, Number(latent?.inputs.width ?? 16) / 32, Number(latent?.inputs.height ?? 16) / 32),
    );
    history.set(promptId, {
      outputs: { [save?.[0] ?? "9"]: { images: [{ filename, subfolder: "", type: "output" }] } },
      status: { status_str: "success", completed: true, messages: [] },
    });
    send(clientId, { type: "executing", data: { node: null, prompt_id: promptId } });
    send(clientId, { type: "execution_success", data: { prompt_id: promptId, timestamp: Date.now() } });
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://standin");
    const json = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method === "POST" && url.pathname === "/prompt") {
      const body = JSON.parse(await read(req)) as { prompt?: Record<string, Node>; client_id?: string };
      const workflow = body.prompt ?? {};
      const nodeErrors: Record<string, unknown> = {};
      for (const [id, node] of Object.entries(workflow)) {
        for (const [name, value] of Object.entries(node.inputs ?? {})) {
          const dangling = Array.isArray(value) && typeof value[0] === "string" && !(value[0] in workflow);
          const placeholder = typeof value === "string" && /\{\{\w+\}\}/.test(value);
          if (dangling || placeholder)
            nodeErrors[id] = {
              errors: [{ type: "invalid_input", message: `${name} is not valid` }],
              class_type: node.class_type,
            };
        }
      }
      if (Object.keys(workflow).length === 0 || Object.keys(nodeErrors).length > 0) {
        json(400, {
          error: { type: "prompt_outputs_failed_validation", message: "Prompt outputs failed validation" },
          node_errors: nodeErrors,
        });
        return;
      }
      workflows.push(workflow);
      const promptId = randomUUID();
      json(200, { prompt_id: promptId, number: workflows.length, node_errors: {} });
      const go = () => run(promptId, body.client_id ?? "", workflow);
      // Held runs wait for release() (a test decides when a picture is ready).
      if (opts.hold) held.push(go);
      else setTimeout(go, opts.delayMs ?? 0);
      return;
    }
    if (req.method === "GET" && url.pathname.startsWith("/history/")) {
      const id = decodeURIComponent(url.pathname.slice("/history/".length));
      const entry = history.get(id);
      json(200, entry ? { [id]: { prompt: [0, id, {}, {}, []], ...entry } } : {});
      return;
    }
    if (req.method === "GET" && url.pathname === "/view") {
      const file =
        url.searchParams.get("type") === "output"
          ? files.get(url.searchParams.get("filename") ?? "")
          : undefined;
      if (!file) res.writeHead(404).end();
      else res.writeHead(200, { "content-type": "image/png" }).end(file);
      return;
    }
    json(404, { error: "not found" });
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (req, socket, head) => {
    const url = new URL(req.url ?? "/", "http://standin");
    if (url.pathname !== "/ws") {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const clientId = url.searchParams.get("clientId") ?? randomUUID().replaceAll("-", "");
      sockets.set(clientId, ws);
      ws.on("close", () => sockets.delete(clientId));
      ws.send(
        JSON.stringify({
          type: "status",
          data: { status: { exec_info: { queue_remaining: 0 } }, sid: clientId },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    workflows,
    /** Runs every held run now. */
    release: () => {
      for (const go of held.splice(0)) go();
    },
    /** Clients connected to /ws now. */
    connected: () => sockets.size,
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
