import { randomUUID } from "node:crypto";
import type { ApiError, ConversationCreated } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTestCharacter } from "../../../../test/chat.ts";
import { drivers } from "../../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../../test/harness.ts";
import { generations } from "../schema.ts";

describe.each(drivers.map((driver) => ({ driver, redis: driver === "postgres" })))(
  "resuming a generation's events from an id ($driver, redis: $redis)",
  ({ driver, redis }) => {
    let h: TestHearth;
    let owner: { cookie: string; id: string };
    let generationId: string;

    beforeAll(async () => {
      h = await startTestHearth({ driver, redis });
      owner = await h.signUp({ name: "Owner" });
      const character = await insertTestCharacter(h.database.db, owner.id);
      const res = await h.app.inject({
        method: "POST",
        url: "/api/conversations",
        headers: { cookie: owner.cookie, "content-type": "application/json" },
        payload: JSON.stringify({ character_id: character.id }),
      });
      const { conversation, messages } = res.json() as ConversationCreated;
      generationId = randomUUID();
      // A finished reply: its events are read back from the bus, after the id the client names.
      await h.database.db.insert(generations).values({
        id: generationId,
        conversationId: conversation.id,
        userId: owner.id,
        action: "send",
        status: "done",
        messageId: messages[0]?.id ?? null,
        finishedAt: new Date(),
      });
    });
    afterAll(async () => {
      await h?.stop();
    });

    const resume = (after: string, how: "query" | "header") =>
      h.app.inject({
        method: "GET",
        url: `/api/generations/${generationId}/events${how === "query" ? `?after=${after}` : ""}`,
        headers: { cookie: owner.cookie, ...(how === "header" ? { "last-event-id": after } : {}) },
      });

    it("an id part past 15 digits (past what a Redis stream id or an exact number holds) is bad input", async () => {
      for (const after of [
        "99999999999999999999",
        "18446744073709551615-18446744073709551615",
        "1-9999999999999999",
      ]) {
        for (const how of ["query", "header"] as const) {
          const res = await resume(after, how);
          expect([after, how, res.statusCode]).toEqual([after, how, 400]);
          expect((res.json() as ApiError).code).toBe("invalidRequest");
        }
      }
    });

    it("an id within range resumes the stream", async () => {
      const res = await resume("999999999999999-999999999999999", "query");
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toContain("text/event-stream");
    });
  },
);
