import { randomBytes } from "node:crypto";
import type { ApiError, Character, TrainingStatus } from "@hearth/contract";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../test/chat.ts";
import { drivers } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../../test/harness.ts";
import { type TrainingStandin, trainingStandin } from "../../../test/training-standin.ts";
import { users } from "../accounts/schema.ts";
import { api, type Person, personAs, type Role } from "../characters/test-support.ts";
import { loraFor, readyForImages, type TrainingStep } from "./index.ts";
import { TRAINING_SIGN_UP, TRAINING_UPGRADE } from "./policy.ts";

const HOUR = 3_600_000;

/** Per-bot image training over HTTP, its job against a stand-in training service, on each database. */
describe.each(drivers)("image training on %s", (driver) => {
  let h: TestHearth;
  let a: ReturnType<typeof api>;
  let standin: TrainingStandin;
  let creator: Person;
  let premium: Person;
  const steps: TrainingStep[] = [];
  const waiters: { match: (s: TrainingStep) => boolean; resolve: (s: TrainingStep) => void }[] = [];

  beforeAll(async () => {
    standin = await trainingStandin({ apiKey: "sk-train" });
    h = await startTestHearth({
      driver,
      // PostgreSQL runs the job on BullMQ (Redis); PGlite on the in-process queue.
      redis: driver === "postgres",
      env: { TRAINING_BASE_URL: standin.url, TRAINING_API_KEY: "sk-train", TRAINING_STEPS: "700" },
    });
    a = api(h);
    creator = await personAs(h, "free", "Cora");
    premium = await personAs(h, "premium", "Pia");
    h.imageTraining.events.on("step", (s: TrainingStep) => {
      steps.push(s);
      for (const w of waiters.filter((w) => w.match(s))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(s);
      }
    });
  });
  afterAll(async () => {
    await h.stop();
    await standin.close();
  });

  /** Resolves with the first step of a request (seen already or still to come) that matches. */
  const stepOf = (requestId: string, status: TrainingStep["status"]) => {
    const match = (s: TrainingStep) => s.requestId === requestId && s.status === status;
    const seen = steps.find(match);
    return seen
      ? Promise.resolve(seen)
      : new Promise<TrainingStep>((resolve) => waiters.push({ match, resolve }));
  };
  const requestIdOf = async (characterId: string) => {
    const { rows } = await h.database.db.execute<{ id: string }>(
      sql`select id from image_training_requests where character_id = ${characterId} order by created_at desc limit 1`,
    );
    const id = rows[0]?.id;
    if (!id) throw new Error("no training request");
    return id;
  };
  /** A bot with an avatar in storage (the reference image the job sends). */
  const newBot = async (over: Parameters<typeof insertTestCharacter>[2] = {}) => {
    const key = `avatars/test/${randomBytes(6).toString("hex")}`;
    const webp = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#c08040" } })
      .webp()
      .toBuffer();
    await h.storage.put(`${key}-512.webp`, webp, "image/webp");
    return {
      bot: await insertTestCharacter(h.database.db, creator.id as string, { avatarKey: key, ...over }),
      webp,
    };
  };
  const train = (who: Person, characterId: string) =>
    a.post("/api/characters/train", { character_id: characterId }, who);
  const statusOf = async (who: Person, characterId: string) => {
    const res = await a.get(`/api/characters/${characterId}/training`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TrainingStatus>();
  };
  const loraStatusOf = async (characterId: string) =>
    (await a.get(`/api/characters/${characterId}`, premium)).json<Character>().lora_status;
  /** The next poll, as the sweep would run it an hour from now. */
  const pollNow = async (requestId: string, status: TrainingStep["status"]) => {
    const stepped = stepOf(requestId, status);
    await h.imageTraining.sweep(new Date(Date.now() + HOUR));
    return stepped;
  };

  it("trains a bot: not trained → pending with the queue count → submitted → ready, its LoRA stored", async () => {
    const { bot, webp } = await newBot({ name: "Mira" });
    expect(await loraStatusOf(bot.id)).toBe("not_trained");
    expect(await statusOf(premium, bot.id)).toEqual({
      character_id: bot.id,
      lora_status: "not_trained",
      queued: 0,
      requests_today: 0,
      daily_limit: 4,
      service: true,
    });
    const submitted = standin.nextSubmission();
    const res = await train(premium, bot.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TrainingStatus>()).toMatchObject({
      lora_status: "pending",
      queued: 1,
      requests_today: 1,
    });
    expect(await loraStatusOf(bot.id)).toBe("pending");

    const job = await submitted;
    const requestId = await requestIdOf(bot.id);
    await stepOf(requestId, "submitted");
    expect(job).toMatchObject({
      output_name: `hearth-${bot.id}`,
      max_train_steps: 700,
      network_module: "networks.lora",
      authorization: "Bearer sk-train",
    });
    expect(job.trigger_word).toMatch(/^hrth[0-9a-f]{8}$/);
    expect(job.images).toHaveLength(1);
    expect(job.images[0]?.bytes.equals(webp)).toBe(true);
    expect(job.images[0]?.caption).toBe(`${job.trigger_word}, Mira`);

    // Asking again while it trains adds no request: the queue message again.
    const again = await train(premium, bot.id);
    expect(again.json<TrainingStatus>()).toMatchObject({
      lora_status: "pending",
      queued: 1,
      requests_today: 1,
    });

    standin.start(job.id, 0.4);
    await pollNow(requestId, "submitted");
    expect(await loraStatusOf(bot.id)).toBe("pending");
    expect(await loraFor(h.database.db, bot.id)).toBeNull();
    expect(readyForImages(h.config, "pending")).toBe(false);

    const output = standin.succeed(job.id);
    await pollNow(requestId, "succeeded");
    expect(await loraStatusOf(bot.id)).toBe("ready");
    expect(await statusOf(premium, bot.id)).toMatchObject({ lora_status: "ready", queued: 0 });
    const lora = await loraFor(h.database.db, bot.id);
    expect(lora).toEqual({
      name: `hearth-${bot.id}`,
      key: `loras/${bot.id}/${requestId}.safetensors`,
      triggerWord: job.trigger_word,
      weight: 0.8,
    });
    expect((await h.storage.get(lora?.key as string))?.body.equals(output)).toBe(true);
    expect(readyForImages(h.config, "ready")).toBe(true);

    const trained = await train(premium, bot.id);
    expect(trained.statusCode).toBe(409);
    expect(trained.json<ApiError>().message).toBe("This chatbot is already trained for images.");
  });

  it("marks the bot failed when the training run fails, and lets a member ask again", async () => {
    const { bot } = await newBot();
    const submitted = standin.nextSubmission();
    expect((await train(premium, bot.id)).statusCode).toBe(200);
    const job = await submitted;
    const requestId = await requestIdOf(bot.id);
    await stepOf(requestId, "submitted");
    standin.fail(job.id, "CUDA out of memory");
    await pollNow(requestId, "failed");
    expect(await loraStatusOf(bot.id)).toBe("failed");
    expect(await loraFor(h.database.db, bot.id)).toBeNull();

    // A job the service forgot (a restart) fails too, rather than being polled forever.
    const resubmitted = standin.nextSubmission();
    expect((await train(premium, bot.id)).json<TrainingStatus>().lora_status).toBe("pending");
    const second = await resubmitted;
    const secondId = await requestIdOf(bot.id);
    expect(secondId).not.toBe(requestId);
    await stepOf(secondId, "submitted");
    standin.forget(second.id);
    await pollNow(secondId, "failed");
    expect(await loraStatusOf(bot.id)).toBe("failed");
  });

  it("frees a bot whose request went with its member's deleted account", async () => {
    const leaving = await personAs(h, "premium", "Lee");
    const { bot } = await newBot();
    expect((await train(leaving, bot.id)).statusCode).toBe(200);
    await h.database.db.delete(users).where(eq(users.id, leaving.id as string));
    expect(await loraStatusOf(bot.id)).toBe("pending");
    expect(await h.imageTraining.upkeep()).toBe(1);
    expect(await loraStatusOf(bot.id)).toBe("failed");
    expect((await train(premium, bot.id)).json<TrainingStatus>().lora_status).toBe("pending");
  });

  it("refuses a bot without an avatar: there is nothing to learn from", async () => {
    const bot = await insertTestCharacter(h.database.db, creator.id as string);
    const res = await train(premium, bot.id);
    expect(res.statusCode).toBe(400);
    expect(res.json<ApiError>().message).toMatch(/needs an avatar/);
    expect(await loraStatusOf(bot.id)).toBe("not_trained");
  });

  it("lets only I'm All In members (and administrators) train bots they may chat with", async () => {
    const { bot: open } = await newBot();
    const { bot: hidden } = await newBot({ visibility: "private" });
    const cases: [Role | "creator (free)" | "creator (premium)", number, string | undefined][] = [
      ["signed out", 401, undefined],
      ["guest", 403, TRAINING_SIGN_UP],
      ["free", 403, TRAINING_UPGRADE],
      ["basic", 403, TRAINING_UPGRADE],
      ["restricted", 403, undefined],
      ["creator (free)", 403, TRAINING_UPGRADE],
    ];
    for (const [role, status, errorType] of cases) {
      const who = role === "creator (free)" ? creator : await personAs(h, role as Role);
      const res = await train(who, open.id);
      expect(res.statusCode, `${role}: ${res.body}`).toBe(status);
      if (role === "restricted") expect(res.json<ApiError>().code).toBe("restricted");
      if (errorType) expect(res.json<ApiError>().error_type, role).toBe(errorType);
    }
    expect(await loraStatusOf(open.id)).toBe("not_trained");

    // Another member's private bot is not there for them; its creator on I'm All In and an admin may train it.
    const other = await personAs(h, "premium", "Otto");
    const refused = await train(other, hidden.id);
    expect(refused.statusCode).toBe(404);
    expect(refused.json<ApiError>().code).toBe("invalidAccess");
    const missing = await train(premium, "00000000-0000-4000-8000-000000000000");
    expect(missing.json<ApiError>().code).toBe("invalidAccess");
    const { bot: own } = await newBot({ visibility: "private" });
    await updateUser(h.database.db, creator.id as string, { role: "premium", status: "active" });
    expect((await train(creator, own.id)).json<TrainingStatus>().lora_status).toBe("pending");
    await updateUser(h.database.db, creator.id as string, { role: "free", status: "active" });
    const admin = await personAs(h, "admin", "Ada");
    expect((await train(admin, hidden.id)).json<TrainingStatus>().lora_status).toBe("pending");
    // Any other I'm All In member on a public bot.
    expect((await train(other, open.id)).json<TrainingStatus>().lora_status).toBe("pending");

    // Reading the state: signed-in viewers of the bot; not the signed out, not restricted accounts.
    expect((await a.get(`/api/characters/${open.id}/training`)).statusCode).toBe(401);
    expect((await statusOf(await personAs(h, "guest"), open.id)).lora_status).toBe("pending");
    const restricted = await a.get(`/api/characters/${open.id}/training`, await personAs(h, "restricted"));
    expect(restricted.json<ApiError>().code).toBe("restricted");
    expect((await a.get(`/api/characters/${hidden.id}/training`, other)).statusCode).toBe(404);
  });

  it("allows 4 training requests a day per member, then answers 429 with why", async () => {
    const member = await personAs(h, "premium", "Quinn");
    for (let i = 1; i <= 4; i++) {
      const { bot } = await newBot();
      const res = await train(member, bot.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<TrainingStatus>().requests_today).toBe(i);
    }
    const { bot: fifth } = await newBot();
    const res = await train(member, fifth.id);
    expect(res.statusCode).toBe(429);
    expect(res.json<ApiError>()).toMatchObject({
      code: "limitReached",
      message: "You can ask for image training 4 times a day. Please try again tomorrow.",
    });
    expect(await loraStatusOf(fifth.id)).toBe("not_trained");
    expect(await statusOf(member, fifth.id)).toMatchObject({ requests_today: 4, daily_limit: 4 });
    // Another member's allowance is their own.
    expect((await train(await personAs(h, "premium"), fifth.id)).statusCode).toBe(200);
  });
});

/** With no training service: every bot is ready for images, and training says why it is not offered. */
describe.each(drivers)("image training without a service on %s", (driver) => {
  let h: TestHearth;

  beforeAll(async () => {
    h = await startTestHearth({ driver });
  });
  afterAll(() => h.stop());

  it("answers 503 that this server has no training service, and counts every bot ready", async () => {
    const a = api(h);
    const creator = await personAs(h, "free");
    const member = await personAs(h, "premium");
    const bot = await insertTestCharacter(h.database.db, creator.id as string, { avatarKey: "avatars/x/y" });
    const res = await a.post("/api/characters/train", { character_id: bot.id }, member);
    expect(res.statusCode).toBe(503);
    expect(res.json<ApiError>()).toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(/no image training service/),
    });
    // Still only for I'm All In: others hear about their plan, not the server.
    expect((await a.post("/api/characters/train", { character_id: bot.id }, creator)).statusCode).toBe(403);
    const status = (await a.get(`/api/characters/${bot.id}/training`, member)).json<TrainingStatus>();
    expect(status).toMatchObject({ service: false, lora_status: "not_trained", queued: 0 });
    expect(readyForImages(h.config, "not_trained")).toBe(true);
    expect(await loraFor(h.database.db, bot.id)).toBeNull();
  });
});
