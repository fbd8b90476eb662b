import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client.ts";
import { viewerFromUser } from "../accounts/index.ts";
import { WaitingRoom } from "./service.ts";

/** When the line cannot be read (accounts-billing-admin § "Queue fetch error"): subscribers in, others wait. */
describe("waiting room with an unreadable line", () => {
  const down = () => Promise.reject(new Error("database down"));
  const broken = { transaction: down, execute: down } as unknown as Db;
  const room = new WaitingRoom({ db: broken, capacity: 2 });
  const log = { error: vi.fn() } as unknown as FastifyBaseLogger;
  const person = (over: Record<string, unknown>) =>
    viewerFromUser({ id: "u1", email: "a@b.c", name: "A", createdAt: new Date(), ...over });

  it("lets a member with a paid plan in, though its permissions were withdrawn", async () => {
    const limited = person({ role: "basic", status: "active", restriction: "limited" });
    expect((await room.state(limited, {}, log)).status).toBe("access");
    expect((await room.join(limited, {}, log)).status).toBe("access");
    expect(log.error).toHaveBeenCalled();
  });

  it("keeps free members and guests waiting, without failing the request", async () => {
    for (const who of [
      person({}),
      person({ isAnonymous: true }),
      person({ role: "basic", status: "expired" }),
    ]) {
      for (const ask of [room.state, room.join]) {
        expect(await ask.call(room, who, {}, log)).toMatchObject({
          status: "waiting",
          position: null,
          enabled: true,
        });
      }
    }
  });
});
