import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pngParameters, standinPng } from "./standin-png.ts";

/**
 * Stand-ins for the HTTP image and moderation services Hearth speaks to, each answering as its
 * vendor documents it, recording every request (with its authorization header):
 * - Automatic1111 / Forge: `POST /sdapi/v1/txt2img` → `{ images: [base64 PNG], parameters, info }`.
 * - OpenAI-compatible images: `POST /v1/images/generations` → `{ created, data: [{ b64_json }] }`,
 *   or `{ url }` (served by the stand-in) when `response_format: "url"`; a prompt with "POLICY"
 *   is refused with 400 `content_policy_violation`.
 * - OpenAI-compatible moderation: `POST /v1/moderations` with text and `image_url` parts →
 *   `{ id, model, results: [{ flagged, categories, category_scores }] }`; text (or a stand-in
 *   picture's `parameters`) with "FORBIDDEN" is flagged `sexual/minors`, with "GORE"
 *   `violence/graphic`; a picture made from a prompt with "UNSAFE-PICTURE" is flagged
 *   `sexual/minors` though the words alone pass (what a model drew, not what it was asked).
 * The pictures are standin-png.ts's (the prompt in a tEXt chunk). "CRASH" in a prompt answers 500.
 */
export interface RecordedRequest {
  path: string;
  body: Record<string, unknown>;
  authorization: string | undefined;
}

async function serve(
  handle: (req: IncomingMessage, body: Record<string, unknown>, res: ServerResponse, base: string) => void,
  opts: { delayMs?: number; authorization?: string },
) {
  const requests: RecordedRequest[] = [];
  let base = "";
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const path = new URL(req.url ?? "/", "http://standin").pathname;
      if (req.method === "POST") requests.push({ path, body, authorization: req.headers.authorization });
      const answer = () => {
        if (req.method === "POST" && opts.authorization && req.headers.authorization !== opts.authorization) {
          res.writeHead(401, { "content-type": "application/json" }).end('{"error":{"message":"bad key"}}');
          return;
        }
        handle(req, body, res, base);
      };
      if (req.method === "POST" && opts.delayMs) setTimeout(answer, opts.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

export function a1111Standin(opts: { delayMs?: number; user?: string } = {}) {
  return serve(
    (req, body, res) => {
      if (req.method !== "POST" || new URL(req.url ?? "/", "http://s").pathname !== "/sdapi/v1/txt2img")
        return json(res, 404, { detail: "Not Found" });
      const prompt = String(body.prompt ?? "");
      if (prompt.includes("CRASH")) return json(res, 500, { error: "RuntimeError", detail: "out of memory" });
      const image = standinPng(prompt, Number(body.width ?? 512) / 32, Number(body.height ?? 512) / 32);
      json(res, 200, {
        images: [image.toString("base64")],
        parameters: body,
        info: JSON.stringify({ seed: body.seed }),
      });
    },
    {
      delayMs: opts.delayMs,
      authorization: opts.user ? `Basic ${Buffer.from(opts.user).toString("base64")}` : undefined,
    },
  );
}

export async function openAiImagesStandin(opts: { delayMs?: number; apiKey?: string } = {}) {
  const pictures = new Map<string, Buffer>();
  return serve(
    (req, body, res, base) => {
      const path = new URL(req.url ?? "/", "http://s").pathname;
      if (req.method === "GET" && pictures.has(path)) {
        res.writeHead(200, { "content-type": "image/png" }).end(pictures.get(path));
        return;
      }
      if (req.method !== "POST" || path !== "/v1/images/generations")
        return json(res, 404, { error: { message: "not found" } });
      const prompt = String(body.prompt ?? "");
      if (prompt.includes("POLICY"))
        return json(res, 400, {
          error: {
            message: "Your request was rejected by the safety system.",
            type: "image_generation_user_error",
            code: "content_policy_violation",
          },
        });
      if (prompt.includes("CRASH")) return json(res, 500, { error: { message: "boom" } });
      const image = standinPng(prompt);
      if (body.response_format === "url") {
        const key = `/files/${pictures.size + 1}.png`;
        pictures.set(key, image);
        return json(res, 200, { created: Math.floor(Date.now() / 1000), data: [{ url: `${base}${key}` }] });
      }
      json(res, 200, {
        created: Math.floor(Date.now() / 1000),
        data: [{ b64_json: image.toString("base64"), revised_prompt: prompt }],
      });
    },
    { delayMs: opts.delayMs, authorization: opts.apiKey ? `Bearer ${opts.apiKey}` : undefined },
  );
}

const CATEGORIES = [
  "sexual",
  "sexual/minors",
  "harassment",
  "hate",
  "illicit",
  "self-harm",
  "violence",
  "violence/graphic",
];

export function moderationStandin(opts: { apiKey?: string } = {}) {
  return serve(
    (req, body, res) => {
      if (req.method !== "POST" || new URL(req.url ?? "/", "http://s").pathname !== "/v1/moderations")
        return json(res, 404, { error: { message: "not found" } });
      const parts = Array.isArray(body.input)
        ? body.input
        : [{ type: "text", text: String(body.input ?? "") }];
      let seen = "";
      let drawn = "";
      const types = new Set<string>();
      for (const part of parts as { type: string; text?: string; image_url?: { url: string } }[]) {
        if (part.type === "text") seen += ` ${part.text ?? ""}`;
        if (part.type === "image_url") {
          types.add("image");
          const data = /^data:image\/png;base64,(.*)$/.exec(part.image_url?.url ?? "")?.[1];
          const bytes = Buffer.from(data ?? "", "base64");
          if (!data || bytes.readUInt32BE(0) !== 0x89504e47)
            return json(res, 400, { error: { message: "Invalid image: could not decode the image_url" } });
          drawn += ` ${pngParameters(bytes) ?? ""}`;
        }
      }
      // What a picture shows may differ from its words: "UNSAFE-PICTURE" is seen only in the picture.
      const minors =
        seen.includes("FORBIDDEN") || drawn.includes("FORBIDDEN") || drawn.includes("UNSAFE-PICTURE");
      const gore = seen.includes("GORE") || drawn.includes("GORE");
      const categories = Object.fromEntries(
        CATEGORIES.map((c) => [
          c,
          (c === "sexual/minors" && minors) ||
            (c === "violence/graphic" && gore) ||
            (c === "sexual" && minors),
        ]),
      );
      json(res, 200, {
        id: `modr-${Date.now()}`,
        model: body.model,
        results: [
          {
            flagged: minors || gore,
            categories,
            category_scores: Object.fromEntries(
              Object.entries(categories).map(([c, on]) => [c, on ? 0.97 : 0.001]),
            ),
            category_applied_input_types: Object.fromEntries(CATEGORIES.map((c) => [c, ["text", ...types]])),
          },
        ],
      });
    },
    { authorization: opts.apiKey ? `Bearer ${opts.apiKey}` : undefined },
  );
}
