// The chat file reading thread (threaded-reading.ts). Its code is TypeScript, run through tsx's
// loader as the embedded database's thread is (db/pglite-thread.mjs): a worker thread does not
// inherit the loader its parent registered.
import { register } from "tsx/esm/api";

register();
await import("./reading-thread.ts");
