import { type PGlite, parse, protocol, type QueryOptions, type Results } from "@electric-sql/pglite";
import { RepeatedTexts } from "./repeated-texts.ts";

/**
 * Named prepared statements for PGlite (issue 15 item 4). PGlite's `query` sends every statement
 * unnamed, each in six trips into WebAssembly (parse, describe, bind, describe, execute, sync),
 * so PostgreSQL parses and plans it anew each time. Measured at 200 streaming replies, that was
 * most of the embedded database's time: accepting a message's context query spent 2.3 ms a call,
 * of which 0.3 ms ran it (docs/PERFORMANCE.md).
 *
 * Here a statement text seen `PREPARE_AFTER` times is prepared under a name once; later calls
 * send bind, describe, execute and sync in one trip, and PostgreSQL reuses the parse and, once it
 * judges a generic plan as good, the plan. Answers are PGlite's own (`parseResults`), errors its
 * own (a failed statement ends at its sync, as before). Only top-level queries: a transaction's
 * statements run as PGlite runs them. At most `MAX_STATEMENTS` are kept; the least recently
 * used is closed to make room.
 */
const PREPARE_AFTER = 2;
const MAX_STATEMENTS = 300;

interface Prepared {
  name: string;
  paramTypes: number[];
}

type Query = PGlite["query"];

export interface PreparedStatements {
  /** Named statements now kept (tests, metrics). */
  readonly size: number;
  /** Statements answered through a named statement so far. */
  readonly served: number;
}

export function prepareRepeatedStatements(pg: PGlite): PreparedStatements {
  const original: Query = pg.query.bind(pg);
  const seen = new RepeatedTexts(PREPARE_AFTER, 10 * MAX_STATEMENTS);
  const prepared = new Map<string, Prepared>();
  /** Names to close before the next statement (evicted, or invalidated by a schema change). */
  let closing: string[] = [];
  let counter = 0;
  let served = 0;

  const run = async (message: Uint8Array, options?: QueryOptions) => {
    const close = closing.map((name) => protocol.serialize.close({ type: "S", name }));
    closing = [];
    const out = close.length ? concat([...close, message]) : message;
    return pg.execProtocolStream(out, { syncToFs: false, onNotice: options?.onNotice });
  };

  const prepare = async (text: string, options?: QueryOptions): Promise<Prepared> => {
    const name = `hearth_s${++counter}`;
    const messages = await run(
      concat([
        protocol.serialize.parse({ name, text, types: options?.paramTypes }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync(),
      ]),
      options,
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    if (prepared.size >= MAX_STATEMENTS) {
      const [oldest] = prepared;
      if (oldest) {
        prepared.delete(oldest[0]);
        closing.push(oldest[1].name);
      }
    }
    prepared.set(text, statement);
    return statement;
  };

  const execute = async <T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    let statement = prepared.get(text);
    if (statement) {
      // Most recently used last: eviction takes the first.
      prepared.delete(text);
      prepared.set(text, statement);
    } else {
      statement = await prepare(text, options);
    }
    const { name, paramTypes } = statement;
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = paramTypes[i] as number;
      const serializer = options?.serializers?.[type] ?? pg.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await run(
      concat([
        protocol.serialize.bind({ statement: name, values }),
        protocol.serialize.describe({ type: "P" }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]),
      options,
    );
    await pg.syncToFs();
    served += 1;
    return parse.parseResults(messages, pg.parsers, options)[0] as Results<T>;
  };

  pg.query = async <T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> => {
    // Files in or out (COPY) and explicit parameter types go PGlite's own way.
    if (options?.blob || options?.paramTypes) return original<T>(text, params, options);
    // Counted only while rare: a text once prepared is not counted again.
    if (!prepared.has(text) && !seen.repeated(text)) return original<T>(text, params, options);
    await pg._checkReady();
    try {
      return await pg._runExclusiveTransaction(() =>
        pg._runExclusiveQuery(() => execute<T>(text, params, options)),
      );
    } catch (error) {
      // A table changed under a kept plan ("cached plan must not change result type"): prepare it
      // again next time, and answer this call PGlite's own way.
      if ((error as { code?: string }).code === "0A000" && prepared.has(text)) {
        closing.push((prepared.get(text) as Prepared).name);
        prepared.delete(text);
        return original<T>(text, params, options);
      }
      throw error;
    }
  };

  return {
    get size() {
      return prepared.size;
    },
    get served() {
      return served;
    },
  };
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
