#!/usr/bin/env node
// `npm test`: every test (server, database on PGlite and PostgreSQL, Redis, llama.cpp, Chromium),
// then one closing line "N passed, N failed" that CI reads.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const report = path.join(mkdtempSync(path.join(tmpdir(), "hearth-vitest-")), "report.json");

// Types and lint first: a mistake they catch fails fast, before minutes of tests.
for (const step of ["typecheck", "lint", "build"]) {
  const run = spawnSync("npm", ["run", step], { cwd: root, stdio: "inherit" });
  if (run.status !== 0) {
    console.error(`npm run ${step} failed.`);
    process.exit(run.status ?? 1);
  }
}

const args = [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
];
const result = spawnSync("npx", args, { cwd: root, stdio: "inherit" });

let summary = null;
try {
  summary = JSON.parse(readFileSync(report, "utf8"));
} catch {
  console.error("The test runner wrote no report.");
}
if (summary) {
  const skipped = summary.numPendingTests + summary.numTodoTests;
  console.log(
    `\n${summary.numPassedTests} passed, ${summary.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`,
  );
  if (summary.numTotalTests === 0) {
    console.error("No test ran.");
    process.exit(1);
  }
}
process.exit(result.status ?? 1);
