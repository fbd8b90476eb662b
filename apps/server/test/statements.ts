import type { Db } from "../src/db/client.ts";

/**
 * Watches the statements a database's driver is sent (PGlite's or node-postgres's `query`) and
 * keeps the start of each one `which` picks, until `stop` is called: tests that count round trips.
 */
export function watchStatements(db: Db, which: (text: string) => boolean) {
  const client = (db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const query = client.query;
  const seen: string[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string })?.text;
    if (text && which(text)) seen.push(text.slice(0, 80));
    return query.apply(this, args);
  };
  return {
    seen,
    stop() {
      client.query = query;
    },
  };
}
