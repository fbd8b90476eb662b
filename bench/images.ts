// Pictures in chats (issue 16): the time the image pipeline adds to the image server's own.
// A stand-in ComfyUI (HTTP + /ws, apps/server/test/comfyui-standin.ts) and a stand-in
// Automatic1111 take a fixed time per picture; the whole pipeline is timed from POST
// /api/generate (type image) to its `done` event, over real HTTP on the embedded database: the
// accept, the line, the worker, the prompt, the rule checks, the adapter's protocol, storage and
// the stored message. The adapter alone (the same stand-in, no Hearth) is timed too.
// Run: npx tsx bench/images.ts   (HEARTH_BENCH_RUNS, HEARTH_BENCH_IMAGE_DELAY_MS)
import { readFileSync } from "node:fs";
import type { ConversationCreated } from "@hearth/contract";
import { A1111ImageBackend } from "../apps/server/src/adapters/a1111-images.ts";
import { ComfyUiImageBackend, type WorkflowNode } from "../apps/server/src/adapters/comfyui-images.ts";
import { BUNDLED_WORKFLOW } from "../apps/server/src/config-images.ts";
import type { ImageBackend } from "../apps/server/src/ports/images.ts";
import { insertTestCharacter, readSse } from "../apps/server/test/chat.ts";
import { comfyUiStandin } from "../apps/server/test/comfyui-standin.ts";
import { startTestHearth, updateUser } from "../apps/server/test/harness.ts";
import { a1111Standin } from "../apps/server/test/image-standins.ts";
import { machine, median, ms, writeSection } from "./report.ts";

const RUNS = Number(process.env.HEARTH_BENCH_RUNS ?? 15);
const DELAY_MS = Number(process.env.HEARTH_BENCH_IMAGE_DELAY_MS ?? 500);

async function measure(kind: "comfyui" | "a1111") {
  const standin =
    kind === "comfyui"
      ? await comfyUiStandin({ delayMs: DELAY_MS })
      : await a1111Standin({ delayMs: DELAY_MS });
  const h = await startTestHearth({
    env: {
      IMAGES_BACKEND: kind,
      IMAGES_BASE_URL: standin.url,
      IMAGES_MODEL: "bench.safetensors",
      HEARTH_RATE_LIMIT: "0",
    },
  });
  const base = await h.listen();
  const user = await h.signUp({ name: "Painter" });
  await updateUser(h.database.db, user.id, { role: "premium", status: "active" });
  const character = await insertTestCharacter(h.database.db, user.id, { definitionVisible: true });
  const headers = { cookie: user.cookie, "content-type": "application/json" };
  const pipeline: number[] = [];
  for (let run = 0; run < RUNS + 1; run++) {
    const created = (await (
      await fetch(`${base}/api/conversations`, {
        method: "POST",
        headers,
        body: JSON.stringify({ character_id: character.id }),
      })
    ).json()) as ConversationCreated;
    const start = performance.now();
    const res = await fetch(`${base}/api/generate`, {
      method: "POST",
      headers,
      body: JSON.stringify({ conversation_id: created.conversation.id, type: "image", action: "send" }),
    });
    const events = await readSse(res);
    if (events.at(-1)?.event.type !== "done") throw new Error(JSON.stringify(events.at(-1)));
    if (run > 0) pipeline.push(performance.now() - start); // the first warms the process
  }
  const backend: ImageBackend =
    kind === "comfyui"
      ? new ComfyUiImageBackend({
          baseUrl: standin.url,
          model: "bench.safetensors",
          workflow: JSON.parse(readFileSync(BUNDLED_WORKFLOW, "utf8")) as Record<string, WorkflowNode>,
        })
      : new A1111ImageBackend({ baseUrl: standin.url, model: "bench.safetensors" });
  const adapter: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    await backend.generate({
      prompt: "Mira at dusk",
      negativePrompt: "",
      seed: run,
      width: 512,
      height: 768,
      lora: null,
    });
    adapter.push(performance.now() - start);
  }
  await h.stop();
  await standin.close();
  return { pipeline: median(pipeline), adapter: median(adapter) };
}

const comfy = await measure("comfyui");
const a1111 = await measure("a1111");
const row = (name: string, r: { pipeline: number; adapter: number }) =>
  `| ${name} | ${ms(DELAY_MS)} | ${ms(r.adapter)} (+${ms(r.adapter - DELAY_MS)}) | ${ms(r.pipeline)} | **+${ms(r.pipeline - DELAY_MS)}** | +${ms(r.pipeline - r.adapter)} |`;
const report = `
## Images: what the pipeline adds to the image server's time

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}. Stand-in image servers that take a fixed ${DELAY_MS} ms per picture; the pipeline is timed from \`POST /api/generate\` (type image, I'm All In, a new chat each time) to its \`done\` event over real HTTP on the embedded database (PGlite), median of ${RUNS} runs after one warm-up. Content checks are the rules alone (no moderation service). Rerun: \`npx tsx bench/images.ts\`.

| backend | its own time | the adapter alone (protocol overhead) | whole pipeline | added by Hearth | added over the adapter (accept, line, worker, checks, storage, message) |
|---|---|---|---|---|---|
${row("ComfyUI (POST /prompt, /ws, /history, /view)", comfy)}
${row("Automatic1111 (txt2img, base64)", a1111)}

A real picture takes seconds to minutes, so what Hearth adds (under a fifth of a second here, on a 2-core machine shared with other work; most of it the accept, the line's wake-up and the stored message, as for a text reply) is small beside it; a moderation service adds its own round trip twice (prompt, then picture).
`;
writeSection("images", report);
console.log(report);
