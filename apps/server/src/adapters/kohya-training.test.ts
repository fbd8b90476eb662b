import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fakeSafetensors, type TrainingStandin, trainingStandin } from "../../test/training-standin.ts";
import { TrainingJobGone, TrainingRejected } from "../ports/training.ts";
import { KohyaTrainingService } from "./kohya-training.ts";

/** The kohya-style training adapter against a stand-in job server (decision 021's protocol). */
describe("KohyaTrainingService", () => {
  let standin: TrainingStandin;
  let service: KohyaTrainingService;
  const spec = {
    name: "hearth-mira",
    triggerWord: "hrthmira",
    steps: 600,
    images: [
      {
        filename: "avatar.webp",
        contentType: "image/webp",
        data: Buffer.from("RIFF-webp-bytes"),
        caption: "hrthmira, Mira",
      },
      {
        filename: "extra.png",
        contentType: "image/png",
        data: Buffer.from([137, 80, 78, 71]),
        caption: "hrthmira",
      },
    ],
  };

  // A fresh job server for each test, so queue positions start at one.
  beforeEach(async () => {
    standin = await trainingStandin({ apiKey: "sk-train" });
    service = new KohyaTrainingService({ baseUrl: `${standin.url}/`, apiKey: "sk-train", networkDim: 8 });
  });
  afterEach(() => standin.close());

  it("submits the images, captions, trigger word and train_network.py's arguments", async () => {
    const { jobId } = await service.submit(spec);
    const sent = standin.submissions.find((s) => s.id === jobId);
    expect(sent).toMatchObject({
      output_name: "hearth-mira",
      trigger_word: "hrthmira",
      max_train_steps: 600,
      network_module: "networks.lora",
      network_dim: 8,
      authorization: "Bearer sk-train",
    });
    expect(
      sent?.images.map((i) => [i.filename, i.content_type, i.caption, i.bytes.toString("latin1")]),
    ).toEqual([
      ["avatar.webp", "image/webp", "hrthmira, Mira", "RIFF-webp-bytes"],
      ["extra.png", "image/png", "hrthmira", Buffer.from([137, 80, 78, 71]).toString("latin1")],
    ]);
  });

  it("follows a job from queued through running to its LoRA file", async () => {
    const first = await service.submit(spec);
    const second = await service.submit({ ...spec, name: "hearth-second" });
    expect(await service.status(second.jobId)).toEqual({ state: "queued", queuePosition: 2 });
    standin.start(first.jobId, 0.25);
    expect(await service.status(first.jobId)).toEqual({ state: "running", progress: 0.25 });
    expect(await service.status(second.jobId)).toEqual({ state: "queued", queuePosition: 1 });
    await expect(service.result(first.jobId)).rejects.toThrow(/HTTP 409/);
    const output = standin.succeed(first.jobId);
    expect(await service.status(first.jobId)).toEqual({ state: "succeeded" });
    const lora = await service.result(first.jobId);
    expect(lora.equals(output)).toBe(true);
    expect(lora.equals(fakeSafetensors("hearth-mira"))).toBe(true);
  });

  it("reports a failed job with the service's reason, and a forgotten one as gone", async () => {
    const { jobId } = await service.submit(spec);
    standin.fail(jobId, "CUDA out of memory");
    expect(await service.status(jobId)).toEqual({ state: "failed", error: "CUDA out of memory" });
    standin.forget(jobId);
    await expect(service.status(jobId)).rejects.toBeInstanceOf(TrainingJobGone);
  });

  it("says what went wrong when the key is wrong or the job is refused", async () => {
    const wrongKey = new KohyaTrainingService({ baseUrl: standin.url, apiKey: "nope" });
    await expect(wrongKey.submit(spec)).rejects.toThrow(/refused the job \(HTTP 401/);
    await expect(service.submit({ ...spec, images: [] })).rejects.toBeInstanceOf(TrainingRejected);
    await expect(service.submit({ ...spec, images: [] })).rejects.toThrow(/HTTP 400 .*images/);
  });
});
