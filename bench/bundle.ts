// Size of what the browser must load before the first screen: the entry script and the chunks
// index.html preloads, gzipped as a browser asks. Run: npm run build && npx tsx bench/bundle.ts
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { repoRoot } from "../apps/server/src/config.ts";
import { writeSection } from "./report.ts";

const dist = path.join(repoRoot(), "apps/web/dist");
const html = readFileSync(path.join(dist, "index.html"), "utf8");
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
const gz = (file: string) => gzipSync(readFileSync(path.join(dist, file))).length;
const initialBytes = initial.reduce((sum, f) => sum + gz(f), 0);
const all = readdirSync(path.join(dist, "assets")).filter((f) => f.endsWith(".js"));
const allBytes = all.reduce((sum, f) => sum + gz(`assets/${f}`), 0);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

writeSection(
  "bundle",
  `## Web client size

Measured ${new Date().toISOString().slice(0, 10)} on the production build (\`npm run build\`), gzipped. Rerun: \`npm run build && npx tsx bench/bundle.ts\`.

| | files | gzipped |
|---|---|---|
| initial JS (entry + preloaded chunks) | ${initial.length} | **${kb(initialBytes)}** (target ≤ 200 KB) |
| all JS, every route (loaded lazily, per screen) | ${all.length} | ${kb(allBytes)} |

SillyTavern 1.12.6 loads 1.46 MB of gzipped JS in 175 files before it is ready (DESIGN.md §6): ${((1.46 * 1024 * 1024) / initialBytes).toFixed(1)}x Hearth's first load.`,
);
console.log(`initial ${kb(initialBytes)} in ${initial.length} files; all ${kb(allBytes)} in ${all.length}`);
