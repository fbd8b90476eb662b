import path from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { openDurablePglite } from "./durable-pglite.ts";
import { EmbeddedMaintenance } from "./embedded-maintenance.ts";
import { prepareRepeatedStatements } from "./pglite-statements.ts";
import {
  type EmbeddedTarget,
  fromWireOptions,
  type ThreadReply,
  type ThreadRequest,
  toWireError,
} from "./pglite-wire.ts";

/**
 * The embedded database's own thread (decision 022): PGlite runs here, so its statements (all
 * synchronous WebAssembly) no longer hold the process's event loop and the tokens waiting on it.
 * It answers the main thread's requests (threaded-pglite.ts) in the order they came: each is
 * handed to PGlite at once, and PGlite's own queue and transaction lock order them as they did
 * in the main thread.
 */

const port = parentPort;
if (!port) throw new Error("pglite-thread.ts runs as a worker thread (threaded-pglite.ts).");

interface Open {
  client: PGlite;
  maintenance: EmbeddedMaintenance | undefined;
  close(): Promise<void>;
}

/** Opens PGlite as the process used to: durable on disk (decision 019), repeated statements prepared. */
async function openEmbedded(target: EmbeddedTarget): Promise<Open> {
  // pgvector comes with PGlite (its own package): memory vectors may use it (decision 014).
  const extensions = { vector };
  const { dir, durabilityWindowMs, maintenanceEveryMs, seed } = target;
  const durable =
    dir && durabilityWindowMs !== null
      ? await openDurablePglite(dir, { extensions }, { windowMs: durabilityWindowMs })
      : null;
  const client =
    durable?.client ??
    (dir
      ? await PGlite.create(path.resolve(dir), { extensions })
      : await PGlite.create({ extensions, ...(seed ? { loadDataDir: new Blob([seed]) } : {}) }));
  // Repeated statements keep their parse and plan (pglite-statements.ts).
  prepareRepeatedStatements(client);
  // Only on disk: a database in memory (tests) lives too briefly to need it.
  const maintenance = dir ? new EmbeddedMaintenance(client, { everyMs: maintenanceEveryMs }) : undefined;
  maintenance?.start();
  return {
    client,
    maintenance,
    async close() {
      await maintenance?.stop();
      await (durable ? durable.close() : client.close());
    },
  };
}

const opening = openEmbedded(workerData as EmbeddedTarget);
// A failure to open is answered to every request (the first is the main thread's `ready` check).
opening.catch(() => {});

/** Open transactions by id: the statements sent with that id run in it. */
const transactions = new Map<
  number,
  { tx: Transaction; finish: (commit: boolean) => void; ended: Promise<unknown> }
>();
let nextTransaction = 1;

function begin(client: PGlite): Promise<number> {
  const id = nextTransaction++;
  return new Promise<number>((started, failed) => {
    let finish: (commit: boolean) => void = () => {};
    const decided = new Promise<boolean>((resolve) => {
      finish = resolve;
    });
    // PGlite's transaction: BEGIN, the callback, then COMMIT, or ROLLBACK if it threw. The callback
    // lasts until the main thread says how it ends.
    const ended = client.transaction(async (tx) => {
      transactions.set(id, { tx, finish, ended });
      started(id);
      if (!(await decided)) await tx.rollback();
    });
    ended.catch(failed).finally(() => transactions.delete(id));
  });
}

async function end(id: number, commit: boolean): Promise<null> {
  const open = transactions.get(id);
  if (!open) throw new Error(`No open transaction ${id} on the embedded database's thread.`);
  open.finish(commit);
  await open.ended;
  return null;
}

async function handle(
  request: ThreadRequest,
  open: Open,
): Promise<{ result: unknown; transfer?: ArrayBuffer[] }> {
  const { client } = open;
  const on = (tx: number | undefined) => {
    if (tx === undefined) return client;
    const found = transactions.get(tx);
    if (!found) throw new Error(`No open transaction ${tx} on the embedded database's thread.`);
    return found.tx;
  };
  switch (request.op) {
    case "query":
      return {
        result: await on(request.tx).query(request.text, request.params, fromWireOptions(request.options)),
      };
    case "exec":
      return { result: await on(request.tx).exec(request.text, fromWireOptions(request.options)) };
    case "begin":
      return { result: await begin(client) };
    case "commit":
    case "rollback":
      return { result: await end(request.tx, request.op === "commit") };
    case "dump": {
      // Between transactions: PGlite's query() and transaction() both wait on this lock.
      const blob = await client._runExclusiveTransaction(() => client.dumpDataDir("none"));
      const bytes = await blob.arrayBuffer();
      return { result: bytes, transfer: [bytes] };
    }
    case "ready":
      return { result: null };
    case "stats":
      return { result: open.maintenance ? await open.maintenance.stats() : null };
    case "close":
      await open.close();
      return { result: null };
  }
}

port.on("message", (request: ThreadRequest) => {
  opening
    .then((open) => handle(request, open))
    .then(
      ({ result, transfer }) =>
        port.postMessage({ id: request.id, result } satisfies ThreadReply, transfer ?? []),
      (error: unknown) =>
        port.postMessage({ id: request.id, error: toWireError(error) } satisfies ThreadReply),
    );
});
