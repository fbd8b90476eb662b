import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import path from "node:path";

const file = path.resolve(import.meta.dirname, "../docs/PERFORMANCE.md");

/** The machine a figure was measured on, stated next to it. */
export function machine(): string {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  return `${cpus().length} cores (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
}

/** Replaces one benchmark's section of docs/PERFORMANCE.md (between its markers), keeping the rest. */
export function writeSection(name: string, markdown: string) {
  const start = `<!-- bench:${name} -->`;
  const end = `<!-- /bench:${name} -->`;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  let doc = existsSync(file)
    ? readFileSync(file, "utf8")
    : "# Performance\n\nFigures written by the benchmarks in `bench/`; each section says how to rerun it.\n";
  const at = doc.indexOf(start);
  const until = doc.indexOf(end);
  doc =
    at >= 0 && until > at
      ? doc.slice(0, at) + block + doc.slice(until + end.length)
      : `${doc.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, doc);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export const ms = (n: number) => `${n.toFixed(1)} ms`;
