import type { Db } from "./client.ts";

/**
 * One value per database, made on first use: a process's writer for it, or a statement built and
 * prepared once (drizzle's builder costs CPU on every call; building a reply's end statement took
 * about 1 ms: docs/PERFORMANCE.md, "The floor").
 */
export function perDatabase<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}
