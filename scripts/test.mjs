#!/usr/bin/env node
// `npm test`: every test (server, database on PGlite and PostgreSQL, Redis, llama.cpp, Chromium),
// then one closing line "N passed, N failed" that CI reads.
//
// The server and web tests run in one vitest; the browser test files (each starts its own Hearth
// and Chromium) run one vitest each, from a shared list, beside it: one at a time while the server
// tier runs, then two at once. Serially they took 65 of CI's 90 minutes on 2 cores, while the
// second core sat mostly idle once the server tier was done (a browser file is mostly waiting).
// Arguments (`npm test -- <files>`) run one vitest with them, as before.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const reports = mkdtempSync(path.join(tmpdir(), "hearth-vitest-"));

// Types and lint first: a mistake they catch fails fast, before minutes of tests.
for (const step of ["typecheck", "lint", "build"]) {
  const run = spawnSync("npm", ["run", step], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) {
    console.error(`npm run ${step} failed.`);
    process.exit(run.status ?? 1);
  }
}

const extra = process.argv.slice(2);
/** Browser files at once once the server tier is done (HEARTH_TEST_E2E_PARALLEL overrides). */
const e2eParallel = Math.max(1, Number(process.env.HEARTH_TEST_E2E_PARALLEL) || 2);

/** One vitest; with a name, each of its lines carries it, so the tiers' logs stay readable. */
function runVitest({ name, args, reportName }) {
  const report = path.join(reports, `${reportName ?? (name || "report")}.json`);
  const child = spawn(
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...args],
    { cwd: root, stdio: name ? ["ignore", "pipe", "pipe"] : "inherit" },
  );
  if (name) {
    for (const stream of [child.stdout, child.stderr]) {
      let rest = "";
      stream.on("data", (chunk) => {
        const lines = (rest + chunk.toString()).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
      });
      stream.on("end", () => rest && process.stdout.write(`[${name}] ${rest}\n`));
    }
  }
  const started = Date.now();
  return new Promise((resolve) =>
    child.on("close", (code) => {
      const minutes = ((Date.now() - started) / 60_000).toFixed(1);
      const what = reportName && reportName !== name ? `${name} ${args.at(-1)}` : name;
      if (name) console.log(`[${name}] ${what} finished in ${minutes} min with exit code ${code}`);
      let summary = null;
      try {
        summary = JSON.parse(readFileSync(report, "utf8"));
      } catch {
        console.error(`${what || "The test runner"} wrote no report.`);
      }
      resolve({ name, code: code ?? 1, summary, report });
    }),
  );
}

/**
 * The browser files from one list, biggest first (a rough stand-in for the longest, so the last
 * ones to start are short): one runner from the start, the others once `widen` settles.
 */
async function runBrowserFiles(widen) {
  const dir = path.join(root, "e2e");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.join(dir, f))
    .sort((a, b) => statSync(b).size - statSync(a).size);
  const results = [];
  const runner = async (n) => {
    for (let file = files.shift(); file; file = files.shift()) {
      const reportName = `e2e-${path.basename(file, ".test.ts")}`;
      results.push(await runVitest({ name: `e2e:${n}`, args: ["--project", "e2e", file], reportName }));
    }
  };
  const first = runner(1);
  await widen;
  await Promise.all([first, ...Array.from({ length: e2eParallel - 1 }, (_, i) => runner(i + 2))]);
  return results;
}

let results;
if (extra.length) {
  results = [await runVitest({ name: "", args: extra })];
} else {
  const unit = runVitest({ name: "unit", args: ["--project", "server", "--project", "web"] });
  const browser = runBrowserFiles(unit);
  results = [await unit, ...(await browser)];
}
const total = { passed: 0, failed: 0, skipped: 0, all: 0 };
for (const { summary } of results) {
  if (!summary) continue;
  total.passed += summary.numPassedTests;
  total.failed += summary.numFailedTests;
  total.skipped += summary.numPendingTests + summary.numTodoTests;
  total.all += summary.numTotalTests;
}
// The failures again at the end: with two tiers interleaved they would be far up the log.
const firstLines = (text) => (text ?? "").split("\n").slice(0, 6).join("\n  ");
for (const { name, code, summary } of results) {
  let listed = 0;
  for (const file of summary?.testResults ?? []) {
    for (const test of file.assertionResults.filter((t) => t.status === "failed")) {
      listed += 1;
      console.log(`FAILED ${name ? `[${name}] ` : ""}${path.relative(root, file.name)} > ${test.fullName}`);
      console.log(`  ${firstLines(test.failureMessages[0])}`);
    }
    // A file that failed outside its tests (an import, a beforeAll) has no failed test to show.
    if (file.status === "failed" && !file.assertionResults.some((t) => t.status === "failed")) {
      listed += 1;
      console.log(`FAILED ${name ? `[${name}] ` : ""}${path.relative(root, file.name)}`);
      console.log(`  ${firstLines(file.message)}`);
    }
  }
  if (code !== 0 && listed === 0)
    console.log(`FAILED ${name || "vitest"}: exit code ${code}, no failed test named`);
}
const slowest = results
  .flatMap((r) => r.summary?.testResults ?? [])
  .filter((f) => f.name.includes(`${path.sep}e2e${path.sep}`))
  .map((f) => ({ file: path.basename(f.name), s: Math.round((f.endTime - f.startTime) / 1000) }))
  .sort((a, b) => b.s - a.s);
if (slowest.length > 1) {
  console.log(`\nBrowser files, slowest first: ${slowest.map((f) => `${f.file} ${f.s}s`).join(", ")}`);
}
console.log(`\nReports: ${reports}`);
console.log(
  `\n${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ""}`,
);
if (results.some((r) => !r.summary)) process.exit(1);
if (total.all === 0) {
  console.error("No test ran.");
  process.exit(1);
}
process.exit(results.some((r) => r.code !== 0) ? results.find((r) => r.code !== 0).code : 0);
