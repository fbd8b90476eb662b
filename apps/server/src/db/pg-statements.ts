import pg from "pg";
import { RepeatedTexts } from "./repeated-texts.ts";

/**
 * Named prepared statements for PostgreSQL (issue 15 item 4), the counterpart of
 * pglite-statements.ts: drizzle names only the queries built with `.prepare(name)`, so every
 * other statement (a reply's store, the line's claim, the history read, the streaming writer's
 * batch) was parsed and planned by PostgreSQL at each call. A text seen `PREPARE_AFTER` times is
 * given a name here; node-postgres then prepares it once per connection and afterwards sends only
 * bind and execute. Names are never reused for another text. At most `MAX_NAMED` texts are named
 * (node-postgres cannot forget a statement a connection prepared), the rest stay unnamed; a text
 * whose table changed under its plan ("cached plan must not change result type") is unnamed from
 * then on and the call answered again unnamed.
 */
const PREPARE_AFTER = 2;
const MAX_NAMED = 400;

interface QueryConfig {
  text: string;
  name?: string;
  [key: string]: unknown;
}

export class NamingPool extends pg.Pool {
  private seen = new RepeatedTexts(PREPARE_AFTER, 10 * MAX_NAMED);
  private names = new Map<string, string>();
  private unnamed = new Set<string>();
  private counter = 0;
  /** Statements sent under a name so far (tests). */
  named = 0;

  // biome-ignore lint/suspicious/noExplicitAny: pg.Pool's query has many overloads; this passes them through.
  override query(config: any, values?: any, callback?: any): any {
    const named =
      typeof config === "object" && config !== null && typeof callback !== "function"
        ? this.nameFor(config)
        : null;
    if (!named) return super.query(config, values, callback);
    this.named += 1;
    return (super.query(named, values) as Promise<unknown>).catch((error: { code?: string }) => {
      if (error?.code !== "0A000") throw error;
      this.names.delete(config.text);
      this.unnamed.add(config.text);
      return super.query(config, values);
    });
  }

  /** Whether a text is now sent under a name (tests). */
  isNamed(text: string): boolean {
    return this.names.has(text);
  }

  private nameFor(config: QueryConfig): QueryConfig | null {
    const { text } = config;
    if (typeof text !== "string" || config.name || this.unnamed.has(text)) return null;
    let name = this.names.get(text);
    if (!name) {
      if (this.names.size >= MAX_NAMED || !this.seen.repeated(text)) return null;
      name = `hearth_n${++this.counter}`;
      this.names.set(text, name);
    }
    return { ...config, name };
  }
}
