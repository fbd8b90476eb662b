// Hostile uploads (limits before work): how long a small request waits while one runs. Over real
// HTTP on the embedded database, each upload is sent from a generator (never held whole) while
// GET /api/health is asked again and again and the event loop's delay is sampled
// (perf_hooks.monitorEventLoopDelay). The same files as apps/server/src/http/hostile-uploads.api.test.ts.
// Run: npx tsx bench/hostile-uploads.ts   (HEARTH_BENCH_RUNS, default 3)
import { loadavg } from "node:os";
import { insertTestCharacter } from "../apps/server/test/chat.ts";
import { startTestHearth, updateUser } from "../apps/server/test/harness.ts";
import {
  bigArchive,
  type Delays,
  flatPng,
  hearthChat,
  jsonlChat,
  once,
  postFile,
  whileProbing,
} from "../apps/server/test/hostile-uploads.ts";
import { machine, median, ms, writeSection } from "./report.ts";

const RUNS = Number(process.env.HEARTH_BENCH_RUNS ?? 3);
const MB = 1024 * 1024;

const h = await startTestHearth({ env: { HEARTH_RATE_LIMIT: "0" } });
const base = await h.listen();
const user = await h.signUp({ name: "Bench" });
await updateUser(h.database.db, user.id, { role: "premium", status: "active" });
const character = await insertTestCharacter(h.database.db, user.id);
const headers = { cookie: user.cookie };
const health = `${base}/api/health`;
const big = await flatPng(6000, 6000);
const decodable = await flatPng(2000, 2000);

const idle = async () => {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return { status: 0 };
};
const avatars = (png: Buffer) => async () => {
  const answers = await Promise.all(
    Array.from({ length: 8 }, () =>
      postFile(`${base}/api/users/me/avatar`, headers, once(png), { method: "PUT", filename: "a.png" }),
    ),
  );
  return { status: answers[0]?.status ?? 0 };
};

const importUrl = `${base}/api/conversations/import?character_id=${character.id}`;
const hearthImport = (messages: number) => () =>
  postFile(importUrl, headers, hearthChat(messages, 49 * MB), { filename: "chat.hearth.json" });

const cases: {
  name: string;
  before: string;
  answer: string;
  work: () => Promise<{ status: number }>;
  /** What the small request asks, when not GET /api/health. */
  probe?: string;
}[] = [
  { name: "nothing (2 s of requests alone)", before: "", answer: "", work: idle },
  {
    name: "1,000,000-line SillyTavern chat (55 MB)",
    before: "203-423 ms",
    answer: "413 tooManyMessages at the 100,001st message",
    work: () =>
      postFile(
        `${base}/api/conversations/import?character_id=${character.id}`,
        headers,
        jsonlChat(1_000_000),
        {
          filename: "chat.jsonl",
        },
      ),
  },
  {
    name: "49 MB Hearth chat JSON, 100,000 messages; the probe is a request the database does not answer",
    before: "1,738 ms (the read put back on the event loop)",
    answer: "201, read on a reading thread",
    work: hearthImport(100_000),
    probe: `${base}/api/no-such-route`,
  },
  {
    name: "49 MB Hearth chat JSON, 100,000 messages; GET /api/health, which waits for the embedded database",
    before: "",
    answer: "201, read on a reading thread",
    work: hearthImport(100_000),
  },
  {
    name: "49 MB Hearth chat JSON, 100,001 messages",
    before: "",
    answer: "413 tooManyMessages, counted before the messages are checked",
    work: hearthImport(100_001),
  },
  {
    name: "210 MB account archive, streamed (chunked)",
    before: "309-435 ms",
    answer: "413 as it passes 200 MB, spooled to disk",
    work: () => postFile(`${base}/api/account/import`, headers, bigArchive(210 * MB), { filename: "a.zip" }),
  },
  {
    name: "210 MB account archive, Content-Length declared",
    before: "",
    answer: "413 before reading",
    work: () =>
      postFile(`${base}/api/account/import`, headers, bigArchive(210 * MB), {
        contentLength: 210 * MB + 300,
      }),
  },
  {
    name: `8 parallel 36-megapixel PNG avatars (${Math.round(big.length / 1024)} KB each)`,
    before: "130 ms",
    answer: "413 from the header (over 25 megapixels)",
    work: avatars(big),
  },
  {
    name: "8 parallel 4-megapixel PNG avatars, decoded",
    before: "",
    answer: "200, decoded in line",
    work: avatars(decodable),
  },
];

const rows: string[] = [];
for (const c of cases) {
  const runs: Delays[] = [];
  let status = 0;
  for (let run = 0; run < RUNS; run++) {
    const [result, delays] = await whileProbing(c.probe ?? health, c.work);
    status = result.status;
    runs.push(delays);
  }
  const worst = runs.map((d) => d.worstRequestMs);
  const loop = runs.map((d) => d.worstLoopDelayMs);
  const typical = median(runs.map((d) => d.medianRequestMs));
  console.log(c.name, status, worst, loop);
  rows.push(
    `| ${c.name} | ${c.answer || "-"} | ${c.before || "-"} | ${ms(median(worst))} (${ms(Math.min(...worst))}-${ms(Math.max(...worst))}) | ${ms(typical)} | ${ms(median(loop))} (${ms(Math.max(...loop))}) |`,
  );
}
const load = loadavg()[0]?.toFixed(1);
await h.stop();

writeSection(
  "hostile-uploads",
  `## Hostile uploads: what a small request waits meanwhile

Measured ${new Date().toISOString().slice(0, 10)} on ${machine()}, load average ${load} when it ended (other engineers' builds and tests shared the two cores), PGlite, ${RUNS} runs per upload. Each upload is sent over loopback HTTP from a generator while \`GET /api/health\` is asked again and again, one at a time; "before" is the probe's figure for the same file before the limits were kept while streaming. The event loop's delay is \`perf_hooks.monitorEventLoopDelay\` (10 ms resolution), the client's work included, since the benchmark sends from the server's own process. Rerun: \`npx tsx bench/hostile-uploads.ts\`.

| upload | answer | before: request blocked | slowest request (median of runs, range) | typical request | event loop delay, worst (median of runs, max) |
|---|---|---|---|---|---|
${rows.join("\n")}

The first row is the floor on this machine: what a request waits with no upload at all. A Hearth chat JSON is one document: it is collected in 1 MB blocks that move to a reading thread, which parses, checks and converts it there; its messages are then committed a statement per 1 MB of rows, the chat unsaved until the last one. GET /api/health asks the database, and the embedded database (one connection) answers it between those statements, so its row shows how long one 1 MB statement holds PGlite (before batches were committed apart, the whole import was one transaction and the ping gave up after 2 s, the database reported down); the row before it probes a path with no route, which only the event loop answers.`,
);
