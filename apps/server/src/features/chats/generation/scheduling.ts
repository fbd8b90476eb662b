import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { Viewer } from "../../accounts/index.ts";
import type { RegistryEntry } from "../../inference/index.ts";

/** This process, as recorded on the generations it runs (per-process capacity, dead workers). */
export const WORKER_ID = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * Where a member's reply joins the line for the model. Replies are served in order of `turnAt`,
 * which is arrival plus the head start every better plan gets over this one: I'm All In's
 * priority queue goes first, then other subscribers, then free members, then guests, yet a reply
 * that has waited longer than the gap is served before a newer one of any plan, so nobody starves
 * (ageing). `maxRunning` caps how many of one member's replies run at once (across chats), so
 * one member opening many chats cannot take every slot.
 */
export interface PlaceInLine {
  /** Seconds added to arrival. */
  delaySeconds: number;
  maxRunning: number;
}

export const PLACES = {
  priority: { delaySeconds: 0, maxRunning: 3 },
  subscriber: { delaySeconds: 10, maxRunning: 2 },
  free: { delaySeconds: 30, maxRunning: 1 },
  guest: { delaySeconds: 60, maxRunning: 1 },
} as const satisfies Record<string, PlaceInLine>;

export function placeInLine(viewer: Viewer): PlaceInLine {
  if (viewer.permissions.includes("priority_queue")) return PLACES.priority;
  if (viewer.permissions.includes("skip_waiting_room")) return PLACES.subscriber;
  return viewer.isGuest ? PLACES.guest : PLACES.free;
}

/**
 * What a reply waits for. A remote server's slots are shared by every Hearth process that sends
 * to it; an embedded model's sequences belong to each process that loads it.
 */
export interface Capacity {
  key: string;
  limit: number;
  perProcess: boolean;
}

export function capacityOf(entry: RegistryEntry, sequences: number): Capacity {
  const backend = entry.backend;
  if (backend.type === "embedded")
    return { key: `embedded:${backend.path}`, limit: sequences, perProcess: true };
  return { key: `server:${backend.base_url}`, limit: entry.slots ?? sequences, perProcess: false };
}

/** Every capacity this process can serve, one per key (models on one server share its slots). */
export function capacitiesOf(entries: readonly RegistryEntry[], sequences: number): Capacity[] {
  const byKey = new Map<string, Capacity>();
  for (const entry of entries) {
    const capacity = capacityOf(entry, sequences);
    const known = byKey.get(capacity.key);
    byKey.set(capacity.key, known && known.limit >= capacity.limit ? known : capacity);
  }
  return [...byKey.values()];
}

/** Replies written with a member's own model key wait for no slot of ours; their member's limit still holds. */
export const MEMBER_KEY_CAPACITY: Capacity = { key: "member-key", limit: 64, perProcess: false };
