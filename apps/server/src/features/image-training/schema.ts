import { sql } from "drizzle-orm";
import { index, pgTable, real, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "../accounts/schema.ts";
import { characters } from "../characters/schema.ts";

const ms = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * Image training requests (chat-and-characters §4 Image training, §7 POST characters/train, §9
 * up to 4 a day). A request is `queued` until the training service takes it (`submitted`, with
 * its `job_id`), then `succeeded` with the LoRA's storage key, or `failed` with a reason. The
 * bot's `lora_status` follows its newest request. `next_poll_at` is when a process may next
 * look at it; taking a request moves it ahead, so two processes do not poll one job at once.
 */
export const imageTrainingRequests = pgTable(
  "image_training_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    characterId: uuid("character_id")
      .notNull()
      .references(() => characters.id, { onDelete: "cascade" }),
    /** Who asked: the daily limit counts these. */
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["queued", "submitted", "succeeded", "failed"] })
      .notNull()
      .default("queued"),
    /** The training service's id for the job, once submitted. */
    jobId: text("job_id"),
    /** The token prompts call the bot up with (the captions' first word). */
    triggerWord: text("trigger_word").notNull(),
    /** Storage key of the trained LoRA (`loras/<character>/<request>.safetensors`). */
    loraKey: text("lora_key"),
    /** The strength image backends apply the LoRA with (TRAINING_LORA_WEIGHT when it was asked for). */
    loraWeight: real("lora_weight").notNull().default(0.8),
    error: text("error"),
    nextPollAt: ms("next_poll_at").notNull().defaultNow(),
    createdAt: ms("created_at").notNull().defaultNow(),
    finishedAt: ms("finished_at"),
  },
  (t) => [
    index("image_training_requests_user_idx").on(t.userId, t.createdAt),
    index("image_training_requests_character_idx").on(t.characterId, t.createdAt.desc()),
    index("image_training_requests_open_idx").on(t.nextPollAt).where(sql`status in ('queued', 'submitted')`),
  ],
);

export type TrainingRequestRow = typeof imageTrainingRequests.$inferSelect;
