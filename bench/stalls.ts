// Where the event loop stalls (issue 15 item 4): reads a V8 .cpuprofile (node --cpu-prof) and
// finds the stretches in which the thread never went idle for at least HEARTH_BENCH_STALL_MS
// (default 10). A token waiting behind such a stretch is late by up to its length, so these are
// what a token's p99 is made of. Prints how many there were, their share of the profile's time,
// and, summed over them, the Hearth functions (inclusive) and packages (self) they ran.
// Run: npx tsx bench/stalls.ts <file.cpuprofile> [more files]
// (e.g. HEARTH_BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/p" with bench/concurrency.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { type CallFrame, frameLabel, isHearthFrame, packageOf, topShares } from "./cpu-profile.ts";

interface Node {
  id: number;
  parent?: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const STALL_MS = Number(process.env.HEARTH_BENCH_STALL_MS ?? 10);
// Only the profile's last HEARTH_BENCH_STALL_LAST_S seconds (the measured phase; startup's
// module loading is one long stretch of its own). Default: all of it.
const LAST_S = Number(process.env.HEARTH_BENCH_STALL_LAST_S ?? 0);
const root = path.resolve(import.meta.dirname, "..");

for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) (byId.get(c) as Node).parent = n.id;
  const idle = new Set(profile.nodes.filter((n) => n.callFrame.functionName === "(idle)").map((n) => n.id));

  const profileMs = profile.timeDeltas.reduce((a, b) => a + b, 0) / 1000;
  const fromMs = LAST_S > 0 ? profileMs - LAST_S * 1000 : 0;
  let atMs = 0;
  // Busy stretches: consecutive samples that are not idle, with their sample indexes.
  const stretches: { from: number; to: number; ms: number }[] = [];
  let open: { from: number; ms: number } | null = null;
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    atMs += (profile.timeDeltas[i] ?? 0) / 1000;
    if (atMs < fromMs) return;
    totalMs += ms;
    if (idle.has(id)) {
      if (open) stretches.push({ ...open, to: i });
      open = null;
      return;
    }
    open ??= { from: i, ms: 0 };
    open.ms += ms;
  });
  const stalls = stretches.filter((s) => s.ms >= STALL_MS);
  const stalledMs = stalls.reduce((a, s) => a + s.ms, 0);
  const inclusive = new Map<string, number>();
  const self = new Map<string, number>();
  let samples = 0;
  for (const s of stalls)
    for (let i = s.from; i < s.to; i++) {
      samples++;
      const leaf = byId.get(profile.samples[i] as number) as Node;
      const pkg = packageOf(leaf.callFrame, root);
      self.set(pkg, (self.get(pkg) ?? 0) + 1);
      const seen = new Set<string>();
      for (let n: Node | undefined = leaf; n; n = n.parent === undefined ? undefined : byId.get(n.parent)) {
        if (!isHearthFrame(n.callFrame)) continue;
        const key = frameLabel(n.callFrame, root);
        if (seen.has(key)) continue;
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
      }
    }
  const lengths = stalls.map((s) => s.ms).sort((a, b) => a - b);
  console.log(
    `\n${path.basename(file)}: ${stalls.length} stretches of ≥ ${STALL_MS} ms busy (longest ${(lengths.at(-1) ?? 0).toFixed(1)} ms, median ${(lengths[Math.floor(lengths.length / 2)] ?? 0).toFixed(1)} ms), ${((100 * stalledMs) / totalMs).toFixed(1)}% of ${(totalMs / 1000).toFixed(1)} s`,
  );
  if (samples === 0) continue;
  console.log(`-- in them, by package (self) --\n${topShares(self, samples, 20)}`);
  console.log(`-- in them, Hearth functions (inclusive) --\n${topShares(inclusive, samples, 40)}`);
}
