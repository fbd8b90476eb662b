// The embedded database's thread (threaded-pglite.ts, decision 022). Its code is TypeScript, run
// through tsx's loader as the CLI's is (bin/hearth.mjs): a worker thread does not inherit the
// loader its parent registered.
import { register } from "tsx/esm/api";

register();
await import("./pglite-thread.ts");
