// What the waiting room offers the rest of the server (issue 15 item 1): /api/queue, and the
// admission check the chat feature makes before each generation.
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.ts";
import type { Auth } from "../accounts/index.ts";
import { roomCounts } from "./queries.ts";
import { waitingRoomRoutes } from "./routes.ts";
import { WaitingRoom, type WaitingRoomDeps } from "./service.ts";

export { WaitingRoom } from "./service.ts";

/** Registers GET and POST /api/queue and answers the room that generations are admitted through. */
export async function installWaitingRoom(
  app: FastifyInstance,
  deps: { db: Db; auth: Auth; capacity: number; timing?: WaitingRoomDeps["timing"] },
): Promise<WaitingRoom> {
  const room = new WaitingRoom({ db: deps.db, capacity: deps.capacity, timing: deps.timing });
  await app.register(waitingRoomRoutes, { auth: deps.auth, room });
  return room;
}

/** The room on /metrics: members waiting, holding access, or told their access lapsed. */
export function roomGauges(db: Db) {
  return [
    {
      name: "hearth_waiting_room_members",
      help: "Members in the waiting room, by status (waiting, access, expired)",
      labelNames: ["status"],
      read: async () =>
        (await roomCounts(db)).map((r) => ({ labels: { status: r.status }, value: r.members })),
    },
  ];
}
