import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { imagesConfig, imagesEnv } from "./config-images.ts";

/** IMAGES_* and MODERATION_*: defaults, each backend, and the sentences that say what is wrong. */
const parse = (env: Record<string, string>) => imagesConfig(z.object(imagesEnv).parse(env));

describe("image configuration", () => {
  it("has no image model and only the rules by default", () => {
    expect(parse({})).toMatchObject({
      backend: { kind: "none" },
      width: 512,
      height: 768,
      concurrency: 1,
      moderation: null,
    });
  });

  it("reads each backend, the size and the moderation service", () => {
    expect(
      parse({
        IMAGES_BACKEND: "a1111",
        IMAGES_BASE_URL: "http://forge:7860",
        IMAGES_API_KEY: "u:p",
        IMAGES_SIZE: "768x1024",
      }),
    ).toMatchObject({
      backend: { kind: "a1111", baseUrl: "http://forge:7860", apiKey: "u:p", model: "" },
      width: 768,
      height: 1024,
    });
    expect(parse({ IMAGES_BACKEND: "openai", IMAGES_BASE_URL: "https://api.openai.com/v1" })).toMatchObject({
      backend: { kind: "openai", model: "gpt-image-1" },
    });
    const comfy = parse({
      IMAGES_BACKEND: "comfyui",
      IMAGES_BASE_URL: "http://comfyui:8188",
      IMAGES_MODEL: "m.safetensors",
    });
    expect(
      typeof comfy === "object" && comfy.backend.kind === "comfyui" && "3" in comfy.backend.workflow,
    ).toBe(true);
    expect(
      parse({
        MODERATION_BASE_URL: "https://api.openai.com/v1",
        MODERATION_BLOCKED: "sexual/minors, violence/graphic",
      }),
    ).toMatchObject({
      moderation: { model: "omni-moderation-latest", blocked: ["sexual/minors", "violence/graphic"] },
    });
  });

  it("says what is wrong", () => {
    expect(parse({ IMAGES_BACKEND: "a1111" })).toBe("IMAGES_BACKEND=a1111 needs IMAGES_BASE_URL");
    expect(parse({ IMAGES_BACKEND: "comfyui", IMAGES_BASE_URL: "http://c:8188" })).toMatch(
      /IMAGES_MODEL names the checkpoint/,
    );
    expect(
      parse({ IMAGES_BACKEND: "comfyui", IMAGES_BASE_URL: "http://c:8188", IMAGES_WORKFLOW: "/nope.json" }),
    ).toMatch(/does not exist/);
    const dir = mkdtempSync(join(tmpdir(), "hearth-workflow-"));
    writeFileSync(join(dir, "w.json"), JSON.stringify({ "1": { class_type: "SaveImage", inputs: {} } }));
    expect(
      parse({
        IMAGES_BACKEND: "comfyui",
        IMAGES_BASE_URL: "http://c:8188",
        IMAGES_WORKFLOW: join(dir, "w.json"),
      }),
    ).toMatch(/\{\{prompt\}\} placeholder/);
    expect(() => parse({ IMAGES_SIZE: "big" })).toThrow(/IMAGES_SIZE must look like 512x768/);
  });
});
