import type { GenerationEvent } from "@hearth/contract";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import type { EventBus } from "../../../ports/bus.ts";
import { messages } from "../schema.ts";
import { eventStream } from "./streams.ts";

/**
 * The reply as its clients saw it, rebuilt from the generation's kept bus events: the text
 * before it (`started.base_content`) and every token after. Null when the stream no longer holds
 * its start (expired, trimmed, or an in-process bus that died with its process).
 */
export async function streamedReply(bus: EventBus, generationId: string): Promise<string | null> {
  const events = await bus.range<GenerationEvent>(eventStream(generationId));
  const start = events.findIndex((e) => e.data.type === "started");
  if (start < 0) return null;
  const started = events[start]?.data as Extract<GenerationEvent, { type: "started" }>;
  let text = started.base_content;
  for (const e of events.slice(start + 1)) if (e.data.type === "token") text += e.data.text;
  return text;
}

/**
 * Gives a cut-off reply the text its clients saw when the batches stored less (decision 015).
 * Only ever extends: the stored text must be where the streamed one starts, so nothing is
 * written twice and a reply edited or finished meanwhile is left alone.
 */
export async function extendFromStream(db: Db, messageId: string, streamed: string | null): Promise<void> {
  if (streamed === null) return;
  const [row] = await db
    .select({ content: messages.content })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.state, "streaming")));
  if (!row || streamed.length <= row.content.length || !streamed.startsWith(row.content)) return;
  await db
    .update(messages)
    .set({ content: streamed })
    .where(and(eq(messages.id, messageId), eq(messages.state, "streaming")));
}
