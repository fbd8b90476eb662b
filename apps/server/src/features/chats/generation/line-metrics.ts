import type { Db } from "../../../db/client.ts";
import { type LineSnapshot, lineSnapshot } from "./scheduler-queries.ts";

/** What the line's gauges read: one snapshot per scrape, shared by the three gauges. */
const FRESH_MS = 1000;

/** A capacity as a label: a server's address without any credentials in it, or a model file's name. */
function capacityLabel(key: string): string {
  const [kind, ...rest] = key.split(":");
  const where = rest.join(":");
  if (kind === "server") {
    try {
      const url = new URL(where);
      return `server:${url.host}${url.pathname}`;
    } catch {
      return "server";
    }
  }
  if (kind === "embedded") return `embedded:${where.split("/").at(-1) ?? ""}`;
  return key;
}

/**
 * The line for the model on /metrics (docs/SCALING.md names what to alert on): replies waiting,
 * running, and the oldest wait, per capacity. Read from the database, so every process reports
 * the whole line; scrape one process, or take the max.
 */
export function lineGauges(db: Db) {
  let taken: { at: number; rows: Promise<LineSnapshot[]> } | null = null;
  const snapshot = () => {
    if (!taken || Date.now() - taken.at > FRESH_MS) taken = { at: Date.now(), rows: lineSnapshot(db) };
    return taken.rows;
  };
  const gauge = (name: string, help: string, pick: (row: LineSnapshot) => number) => ({
    name,
    help,
    labelNames: ["capacity"],
    read: async () =>
      (await snapshot()).map((row) => ({
        labels: { capacity: capacityLabel(row.capacityKey) },
        value: pick(row),
      })),
  });
  return [
    gauge("hearth_replies_waiting", "Replies waiting in line for the model, by capacity", (r) => r.waiting),
    gauge("hearth_replies_running", "Replies being generated, by capacity", (r) => r.running),
    gauge(
      "hearth_reply_oldest_wait_seconds",
      "How long the oldest waiting reply has waited, by capacity",
      (r) => r.oldestWaitS,
    ),
  ];
}
