// The floor for accepting a message (issue 15 item 4): the least a server can do for what Hearth's
// accept on PostgreSQL + Redis does, with none of Hearth (no framework, validation, accounts,
// policy, prompt fit or logging). Per `POST /api/generate`: it reads the JSON body, checks the
// session cookie's HMAC, reads the conversation with the session joined (one named statement),
// stores the user's message and an empty reply and counts them (one named statement with
// data-modifying CTEs), appends `started` to a Redis stream and joins its reader set (one script),
// and answers `queued` and `started` in one write, leaving the stream open as Hearth does. Those
// are the round trips Hearth's accept makes (docs/PERFORMANCE.md), so with the same client on the
// same cores Hearth's median reads as this plus what Hearth adds.
// Used by bench/accept-paired.ts (HEARTH_BENCH_BEFORE=floor); alone:
// `DATABASE_URL=... REDIS_URL=... npx tsx bench/accept-floor.ts` (prints its address).
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { Redis } from "ioredis";
import pg from "pg";
import { json, listenAsHearth } from "./floor-http.ts";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 30 });
const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379") as Redis & {
  floorAppend(keys: number, stream: string, readers: string, data: string, origin: string): Promise<string>;
};
redis.defineCommand("floorAppend", {
  lua: `local id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', 1000, '*', 'd', ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], 60)
return id`,
});
const prefix = `floor-${randomBytes(3).toString("hex")}`;
const secret = randomBytes(32);
const characterId = randomUUID();

await pool.query(`
  create table if not exists floor_sessions (token text primary key, user_id uuid not null, expires_at timestamptz not null);
  create table if not exists floor_conversations (id uuid primary key, owner_id uuid not null, message_count int not null default 0, busy uuid);
  create table if not exists floor_messages (id uuid primary key default gen_random_uuid(), conversation_id uuid not null references floor_conversations(id), role text not null, content text not null, created_at timestamptz not null default now());
  create index if not exists floor_messages_conversation on floor_messages (conversation_id, created_at);
`);

const sign = (token: string) => createHmac("sha256", secret).update(token).digest("base64url");

/** The cookie's token if its signature verifies (as a signed session cookie is checked). */
function verifiedToken(cookie: string | undefined): string | null {
  const value = cookie?.match(/(?:^|;\s*)session=([^;]+)/)?.[1];
  if (!value) return null;
  const dot = value.lastIndexOf(".");
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(sign(token));
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

const CONTEXT = {
  name: "floor_context",
  text: `select c.id, c.owner_id, c.message_count, c.busy, s.user_id, s.expires_at
         from floor_conversations c left join floor_sessions s on s.token = $2 where c.id = $1`,
};
const STORE = {
  name: "floor_store",
  text: `with u as (insert into floor_messages (conversation_id, role, content) values ($1, 'user', $2) returning id, created_at),
              r as (insert into floor_messages (conversation_id, role, content) values ($1, 'bot', '') returning id),
              c as (update floor_conversations set message_count = message_count + 2, busy = $3 where id = $1 returning message_count)
         select (select id from u) as user_id, (select created_at from u) as created_at, (select id from r) as reply_id,
                (select message_count from c) as message_count`,
};

async function accept(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  const { conversation_id: conversationId, content } = JSON.parse(body) as {
    conversation_id: string;
    content: string;
  };
  const token = verifiedToken(req.headers.cookie);
  if (!token) return json(res, 401, { code: "unauthorized" });
  const found = await pool.query({ ...CONTEXT, values: [conversationId, token] });
  const row = found.rows[0];
  if (!row || row.user_id !== row.owner_id || row.expires_at < new Date())
    return json(res, 404, { code: "notFound" });
  const generationId = randomUUID();
  const stored = (await pool.query({ ...STORE, values: [conversationId, content, generationId] })).rows[0];
  const started = {
    type: "started",
    generation_id: generationId,
    user_message: { id: stored.user_id, role: "user", content, created_at: stored.created_at },
    message_id: stored.reply_id,
    action: "send",
    base_content: "",
  };
  const stream = `${prefix}:g:${generationId}`;
  const id = await redis.floorAppend(2, stream, `${stream}:readers`, JSON.stringify(started), "floor");
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
  res.cork();
  res.write(
    `data: ${JSON.stringify({ type: "queued", generation_id: generationId, position: 1, time_left_s: 0 })}\n\n`,
  );
  res.write(`id: ${id}\ndata: ${JSON.stringify(started)}\n\n`);
  res.uncork();
}

async function handle(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  if (req.url === "/api/characters") return json(res, 200, { characters: [{ id: characterId }] });
  if (req.url === "/api/me") return json(res, 200, { user: null });
  if (req.url === "/api/auth/sign-in/anonymous") {
    const token = randomBytes(24).toString("base64url");
    const userId = randomUUID();
    await pool.query("insert into floor_sessions values ($1, $2, now() + interval '7 days')", [
      token,
      userId,
    ]);
    return json(
      res,
      200,
      { user: { id: userId } },
      { "set-cookie": `session=${token}.${sign(token)}; Path=/; HttpOnly` },
    );
  }
  if (req.url === "/api/conversations") {
    const token = verifiedToken(req.headers.cookie);
    const owner = await pool.query("select user_id from floor_sessions where token = $1", [token]);
    const id = randomUUID();
    await pool.query("insert into floor_conversations (id, owner_id) values ($1, $2)", [
      id,
      owner.rows[0]?.user_id,
    ]);
    return json(res, 201, { conversation: { id } });
  }
  if (req.url === "/api/generate" && req.method === "POST") return accept(req, res, body);
  json(res, 404, { code: "notFound" });
}

const server = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => {
    body += chunk;
  });
  req.on("end", () => {
    handle(req, res, body).catch((error: unknown) =>
      json(res, 500, { code: "internal", message: String(error) }),
    );
  });
});
listenAsHearth(server);
