#!/usr/bin/env node
// `npm test`: every test (server, database on PGlite and PostgreSQL, Redis, llama.cpp, Chromium),
// then one closing line "N passed, N failed" that CI reads.
//
// The two tiers run side by side: the server and web tests in one vitest, the browser tests
// (one file at a time, each with its own Hearth) in another. Run one after the other they left
// both cores half idle (a file's imports and its server's start are mostly waiting) and took
// 49 minutes on CI; arguments (`npm test -- <files>`) run one vitest with them, as before.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
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
const tiers = extra.length
  ? [{ name: "", args: extra }]
  : [
      { name: "unit", args: ["--project", "server", "--project", "web"] },
      { name: "e2e", args: ["--project", "e2e"] },
    ];

/** One vitest; with a name, each of its lines carries it, so the two tiers' logs stay readable. */
function runTier({ name, args }) {
  const report = path.join(reports, `${name || "report"}.json`);
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
      if (name) console.log(`[${name}] finished in ${minutes} min with exit code ${code}`);
      let summary = null;
      try {
        summary = JSON.parse(readFileSync(report, "utf8"));
      } catch {
        console.error(`${name || "The test runner"} wrote no report.`);
      }
      resolve({ name, code: code ?? 1, summary, report });
    }),
  );
}

const results = await Promise.all(tiers.map(runTier));
const total = { passed: 0, failed: 0, skipped: 0, all: 0 };
for (const { summary } of results) {
  if (!summary) continue;
  total.passed += summary.numPassedTests;
  total.failed += summary.numFailedTests;
  total.skipped += summary.numPendingTests + summary.numTodoTests;
  total.all += summary.numTotalTests;
}
// The failures again at the end: with two tiers interleaved they would be far up the log.
for (const { name, summary } of results) {
  for (const file of summary?.testResults ?? []) {
    for (const test of file.assertionResults.filter((t) => t.status === "failed")) {
      console.log(`FAILED ${name ? `[${name}] ` : ""}${path.relative(root, file.name)} > ${test.fullName}`);
      console.log(`  ${(test.failureMessages[0] ?? "").split("\n").slice(0, 6).join("\n  ")}`);
    }
  }
}
console.log(`\nReports: ${results.map((r) => r.report).join(", ")}`);
console.log(
  `\n${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ""}`,
);
if (results.some((r) => !r.summary)) process.exit(1);
if (total.all === 0) {
  console.error("No test ran.");
  process.exit(1);
}
process.exit(results.some((r) => r.code !== 0) ? results.find((r) => r.code !== 0).code : 0);
