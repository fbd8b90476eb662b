import { spawn } from "node:child_process";
import { createReadStream, createWriteStream } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { pipeline } from "node:stream/promises";

/**
 * PostgreSQL's own tools, for backups of a DATABASE_URL install: `pg_dump` writes the custom
 * format (what `pg_restore` reads), `pg_restore` turns it back into SQL and `psql` runs that in one
 * transaction. They come with PostgreSQL's client package.
 */

export class MissingToolError extends Error {}

const INSTALL_HINT =
  "Install PostgreSQL's client tools (the same major version as the server, or newer): " +
  "`apt-get install postgresql-client` (Debian, Ubuntu), `apk add postgresql-client` (Alpine), " +
  "`brew install libpq` (macOS), or put them on PATH with HEARTH_PG_BIN.";

/** Where the tools are looked for: HEARTH_PG_BIN (a folder) first, else PATH. */
function toolPath(tool: string): string {
  const dir = process.env.HEARTH_PG_BIN;
  return dir ? `${dir.replace(/\/+$/, "")}/${tool}` : tool;
}

/**
 * libpq takes the URL as is; a password in it stays off the command line (where `ps` would show
 * it) by going through PGPASSWORD.
 */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (parsed.password) {
    env.PGPASSWORD = decodeURIComponent(parsed.password);
    parsed.password = "";
  }
  return { dbname: parsed.toString(), env };
}

interface RunOptions {
  stdin?: string;
  stdout?: string;
  /** Text written to stdin before the file's content (`stdin`). */
  prelude?: string;
  epilogue?: string;
  env: NodeJS.ProcessEnv;
}

function runTool(tool: string, args: string[], opts: RunOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath(tool), args, {
      env: opts.env,
      stdio: [opts.stdin || opts.prelude ? "pipe" : "ignore", opts.stdout ? "pipe" : "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      if (stderr.length < 20_000) stderr += chunk.toString();
    });
    const io: Promise<unknown>[] = [];
    if (opts.stdout && child.stdout)
      io.push(pipeline(child.stdout, createWriteStream(opts.stdout, { mode: 0o600 })));
    if (child.stdin) {
      const stdin = child.stdin;
      stdin.on("error", () => {}); // the tool's own exit reports what went wrong
      io.push(
        (async () => {
          if (opts.prelude) stdin.write(opts.prelude);
          if (opts.stdin) await pipeline(createReadStream(opts.stdin), stdin, { end: false });
          if (opts.epilogue) stdin.write(opts.epilogue);
          stdin.end();
        })(),
      );
    }
    child.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT")
        reject(
          new MissingToolError(
            `\`${tool}\` was not found (needed for backups of a PostgreSQL database). ${INSTALL_HINT}`,
          ),
        );
      else reject(error);
    });
    child.on("close", (code) => {
      Promise.all(io).then(
        () => {
          if (code === 0) resolve();
          else
            reject(
              new Error(`${tool} failed (exit ${code}): ${stderr.trim().split("\n").slice(-5).join(" | ")}`),
            );
        },
        (error) => reject(code === 0 ? error : new Error(`${tool} failed (exit ${code}): ${stderr.trim()}`)),
      );
    });
  });
}

/** `pg_dump --format=custom` of the whole database into `file`. */
export async function pgDump(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  await runTool(
    "pg_dump",
    ["--format=custom", "--no-owner", "--no-acl", "--file", file, "--dbname", dbname],
    {
      env,
    },
  );
}

/**
 * Replaces the database's content with the dump's, in one transaction: Hearth's schemas are
 * dropped and the dump restored, and any failure rolls everything back (the current data stays).
 */
export async function pgRestore(url: string, dumpFile: string, workFile: string): Promise<void> {
  const { dbname, env } = connection(url);
  // The dump's table of contents, less the public schema itself (the prelude makes it again).
  const listFile = `${workFile}.list`;
  await runTool("pg_restore", ["--list", "--file", listFile, dumpFile], { env });
  const list = (await readFile(listFile, "utf8"))
    .split("\n")
    .filter((line) => !/^\d+;\s*\d+\s+\d+\s+SCHEMA\s+-\s+public\s/.test(line))
    .join("\n");
  await writeFile(listFile, list);
  // The dump as SQL (pg_restore alone cannot run it in one transaction with the drop before it).
  await runTool(
    "pg_restore",
    ["--no-owner", "--no-acl", "--use-list", listFile, "--file", workFile, dumpFile],
    {
      env,
    },
  );
  await runTool(
    "psql",
    ["--no-psqlrc", "--quiet", "--single-transaction", "-v", "ON_ERROR_STOP=1", "--dbname", dbname],
    {
      env,
      stdin: workFile,
      prelude:
        "SET client_min_messages = warning;\nDROP SCHEMA IF EXISTS drizzle CASCADE;\nDROP SCHEMA IF EXISTS public CASCADE;\nCREATE SCHEMA public;\n",
    },
  );
}

/** The server's major version can be newer than pg_dump's: pg_dump refuses then, and says so. */
export { INSTALL_HINT };
