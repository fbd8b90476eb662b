import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comfyUiStandin } from "../../test/comfyui-standin.ts";
import { a1111Standin, moderationStandin, openAiImagesStandin } from "../../test/image-standins.ts";
import { pngParameters } from "../../test/standin-png.ts";
import { ImageRefusedError, type ImageRequest } from "../ports/images.ts";
import { A1111ImageBackend } from "./a1111-images.ts";
import { ComfyUiImageBackend, fillWorkflow, type WorkflowNode } from "./comfyui-images.ts";
import { OpenAiImageBackend } from "./openai-images.ts";
import { OpenAiModeration } from "./openai-moderation.ts";

/** The image port's adapters and the moderation adapter, each against a stand-in of its vendor's protocol. */
const workflow = JSON.parse(
  readFileSync(new URL("./comfyui-workflow.json", import.meta.url), "utf8"),
) as Record<string, WorkflowNode>;

const request = (over: Partial<ImageRequest> = {}): ImageRequest => ({
  prompt: "Eira, a tall warrior with braided red hair, at dawn",
  negativePrompt: "blurry, text",
  seed: 1234,
  width: 512,
  height: 768,
  lora: null,
  ...over,
});

describe("ComfyUI (HTTP + WebSocket, workflow template)", () => {
  let standin: Awaited<ReturnType<typeof comfyUiStandin>>;
  beforeAll(async () => {
    standin = await comfyUiStandin();
  });
  afterAll(() => standin.close());
  const backend = () =>
    new ComfyUiImageBackend({ baseUrl: `${standin.url}/`, workflow, model: "dreamshaper_8.safetensors" });

  it("fills the template: text spliced, numbers kept numbers, the LoRA wired in when there is one", () => {
    const filled = fillWorkflow(
      workflow,
      request({ lora: { name: "bot-1.safetensors", weight: 0.8 } }),
      "m.safetensors",
    );
    expect(filled["6"]?.inputs.text).toBe("Eira, a tall warrior with braided red hair, at dawn");
    expect(filled["7"]?.inputs.text).toBe("blurry, text");
    expect(filled["3"]?.inputs.seed).toBe(1234);
    expect(filled["5"]?.inputs).toMatchObject({ width: 512, height: 768 });
    expect(filled["4"]?.inputs.ckpt_name).toBe("m.safetensors");
    expect(filled["10"]?.inputs).toMatchObject({ lora_name: "bot-1.safetensors", strength_model: 0.8 });
    expect(filled["3"]?.inputs.model).toEqual(["10", 0]);
  });

  it("leaves the LoraLoader out without a LoRA, wiring its users to the checkpoint's model and clip", () => {
    const filled = fillWorkflow(workflow, request(), "m.safetensors");
    expect(filled["10"]).toBeUndefined();
    expect(filled["3"]?.inputs.model).toEqual(["4", 0]);
    expect(filled["6"]?.inputs.clip).toEqual(["4", 1]);
    expect(workflow["10"]).toBeDefined(); // the template itself is untouched
  });

  it("queues the workflow, waits for the end on /ws and reads the picture through /history and /view", async () => {
    const made = await backend().generate(request());
    expect(made.contentType).toBe("image/png");
    expect(pngParameters(made.image)).toBe("Eira, a tall warrior with braided red hair, at dawn");
    const queued = standin.workflows.at(-1);
    expect(queued?.["3"]?.inputs.seed).toBe(1234);
    expect(queued?.["10"]).toBeUndefined();
  });

  it("sends the LoRA when the bot has one", async () => {
    await backend().generate(request({ lora: { name: "bot-7.safetensors", weight: 0.7 } }));
    expect(standin.workflows.at(-1)?.["10"]?.inputs.lora_name).toBe("bot-7.safetensors");
    // A bare name (as image training gives it) is the .safetensors file of that name.
    await backend().generate(request({ lora: { name: "hearth-42", weight: 0.7 } }));
    expect(standin.workflows.at(-1)?.["10"]?.inputs.lora_name).toBe("hearth-42.safetensors");
  });

  it("reports the run's execution_error and a workflow the server refuses", async () => {
    await expect(backend().generate(request({ prompt: "CRASH" }))).rejects.toThrow(/CUDA out of memory/);
    const broken = {
      ...workflow,
      "6": { class_type: "CLIPTextEncode", inputs: { text: "{{prompt}}", clip: ["99", 1] } },
    };
    const refused = new ComfyUiImageBackend({ baseUrl: standin.url, workflow: broken, model: "m" });
    await expect(refused.generate(request())).rejects.toThrow(/refused the workflow \(400\)/);
  });
});

describe("Automatic1111 / Forge (/sdapi/v1/txt2img)", () => {
  let standin: Awaited<ReturnType<typeof a1111Standin>>;
  beforeAll(async () => {
    standin = await a1111Standin({ user: "hearth:secret" });
  });
  afterAll(() => standin.close());
  const backend = (apiKey = "hearth:secret") =>
    new A1111ImageBackend({ baseUrl: standin.url, model: "sdxl.safetensors", apiKey });

  it("posts prompt, negative prompt, seed, size and checkpoint with Basic auth, and decodes the base64 PNG", async () => {
    const made = await backend().generate(request());
    const sent = standin.requests.at(-1);
    expect(sent?.path).toBe("/sdapi/v1/txt2img");
    expect(sent?.authorization).toBe(`Basic ${Buffer.from("hearth:secret").toString("base64")}`);
    expect(sent?.body).toMatchObject({
      prompt: request().prompt,
      negative_prompt: "blurry, text",
      seed: 1234,
      width: 512,
      height: 768,
      override_settings: { sd_model_checkpoint: "sdxl.safetensors" },
    });
    expect(made.contentType).toBe("image/png");
    expect(pngParameters(made.image)).toBe(request().prompt);
  });

  it("puts the LoRA into the prompt as <lora:name:weight>", async () => {
    await backend().generate(request({ lora: { name: "bot-7", weight: 0.75 } }));
    expect(standin.requests.at(-1)?.body.prompt).toBe(`${request().prompt} <lora:bot-7:0.75>`);
  });

  it("fails plainly on the server's errors and a wrong password", async () => {
    await expect(backend().generate(request({ prompt: "CRASH" }))).rejects.toThrow(/answered 500/);
    await expect(backend("hearth:wrong").generate(request())).rejects.toThrow(/answered 401/);
  });
});

describe("OpenAI-compatible /images/generations", () => {
  let standin: Awaited<ReturnType<typeof openAiImagesStandin>>;
  beforeAll(async () => {
    standin = await openAiImagesStandin({ apiKey: "sk-images" });
  });
  afterAll(() => standin.close());
  const backend = (over: Partial<ConstructorParameters<typeof OpenAiImageBackend>[0]> = {}) =>
    new OpenAiImageBackend({
      baseUrl: `${standin.url}/v1`,
      apiKey: "sk-images",
      model: "gpt-image-1",
      ...over,
    });

  it("posts model, prompt, n and size with the key, and reads b64_json", async () => {
    const made = await backend().generate(request());
    expect(standin.requests.at(-1)).toEqual({
      path: "/v1/images/generations",
      body: { model: "gpt-image-1", prompt: request().prompt, n: 1, size: "512x768" },
      authorization: "Bearer sk-images",
    });
    expect(pngParameters(made.image)).toBe(request().prompt);
  });

  it("fetches the picture when the service answers a url", async () => {
    const made = await backend({ responseFormat: "url", model: "dall-e-3" }).generate(
      request({ prompt: "a lighthouse" }),
    );
    expect(standin.requests.at(-1)?.body.response_format).toBe("url");
    expect(made.contentType).toBe("image/png");
    expect(pngParameters(made.image)).toBe("a lighthouse");
  });

  it("a content_policy_violation is a refusal; other failures are errors", async () => {
    await expect(backend().generate(request({ prompt: "POLICY" }))).rejects.toBeInstanceOf(ImageRefusedError);
    await expect(backend().generate(request({ prompt: "CRASH" }))).rejects.toThrow(/answered 500/);
    await expect(backend({ apiKey: "wrong" }).generate(request())).rejects.toThrow(/answered 401/);
  });
});

describe("OpenAI-compatible /moderations (omni-moderation: text and image input)", () => {
  let standin: Awaited<ReturnType<typeof moderationStandin>>;
  beforeAll(async () => {
    standin = await moderationStandin({ apiKey: "sk-mod" });
  });
  afterAll(() => standin.close());
  const moderator = (blocked = ["sexual/minors"], apiKey = "sk-mod") =>
    new OpenAiModeration({ baseUrl: `${standin.url}/v1`, apiKey, model: "omni-moderation-latest", blocked });
  const picture = (prompt: string) => ({ image: Buffer.from(prompt), contentType: "image/png" });

  it("sends a prompt as a text part and reads sexual/minors as underage", async () => {
    expect(await moderator().checkPrompt("a knight at dawn")).toEqual({ flagged: false });
    expect(standin.requests.at(-1)).toEqual({
      path: "/v1/moderations",
      body: { model: "omni-moderation-latest", input: [{ type: "text", text: "a knight at dawn" }] },
      authorization: "Bearer sk-mod",
    });
    expect(await moderator().checkPrompt("FORBIDDEN scene")).toEqual({
      flagged: true,
      reason: "underage",
      categories: ["sexual/minors"],
    });
  });

  it("sends a picture as an image_url data URL beside its prompt, and classifies the picture", async () => {
    const { standinPng } = await import("../../test/standin-png.ts");
    const bad = { image: standinPng("a FORBIDDEN picture"), contentType: "image/png" };
    expect(await moderator().checkImage(bad, "an innocent prompt")).toMatchObject({
      flagged: true,
      reason: "underage",
    });
    const parts = standin.requests.at(-1)?.body.input as { type: string; image_url?: { url: string } }[];
    expect(parts.map((p) => p.type)).toEqual(["text", "image_url"]);
    expect(parts[1]?.image_url?.url.startsWith("data:image/png;base64,")).toBe(true);
    const fine = { image: standinPng("a lighthouse"), contentType: "image/png" };
    expect(await moderator().checkImage(fine, "a lighthouse")).toEqual({ flagged: false });
  });

  it("refuses only the categories it is told to; a failed check is an error, never a pass", async () => {
    const { standinPng } = await import("../../test/standin-png.ts");
    const gore = { image: standinPng("GORE"), contentType: "image/png" };
    expect(await moderator().checkImage(gore, "x")).toEqual({ flagged: false });
    expect(await moderator(["sexual/minors", "violence/graphic"]).checkImage(gore, "x")).toEqual({
      flagged: true,
      reason: "guidelines",
      categories: ["violence/graphic"],
    });
    await expect(moderator(undefined, "wrong").checkPrompt("x")).rejects.toThrow(/answered 401/);
    await expect(moderator().checkImage(picture("not a png"), "x")).rejects.toThrow(/answered 400/);
  });
});
