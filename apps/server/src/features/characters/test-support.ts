import { randomBytes } from "node:crypto";
import { crc32, createDeflate } from "node:zlib";
import type { Character, CharacterCreate } from "@hearth/contract";
import type { InjectOptions } from "fastify";
import sharp from "sharp";
import { type TestHearth, updateUser } from "../../../test/harness.ts";

/** Helpers shared by the characters API tests: people in every role, requests, uploads. */

export type Role =
  | "signed out"
  | "guest"
  | "free"
  | "minimal"
  | "basic"
  | "premium"
  | "admin"
  | "restricted"
  | "limited";

export const MEMBER_ROLES = ["free", "minimal", "basic", "premium"] as const;

export interface Person {
  role: Role;
  id: string | null;
  cookie: string | undefined;
}

/** Signs someone up in the given role (paid tiers with an active subscription). */
export async function personAs(h: TestHearth, role: Role, name = "Tester"): Promise<Person> {
  if (role === "signed out") return { role, id: null, cookie: undefined };
  if (role === "guest") {
    const g = await h.signInAsGuest();
    return { role, id: g.id, cookie: g.cookie };
  }
  const u = await h.signUp({ name, username: `u${randomBytes(4).toString("hex")}` });
  const db = h.database.db;
  if (role === "minimal" || role === "basic" || role === "premium") {
    await updateUser(db, u.id, { role, status: "active" });
  } else if (role === "admin") {
    await updateUser(db, u.id, { is_admin: true });
  } else if (role === "restricted") {
    await updateUser(db, u.id, { restriction: "complete" });
  } else if (role === "limited") {
    await updateUser(db, u.id, { restriction: "limited" });
  }
  return { role, id: u.id, cookie: u.cookie };
}

export function api(h: TestHearth) {
  const call = (method: InjectOptions["method"], url: string, who?: Person, body?: unknown) =>
    h.app.inject({
      method,
      url,
      headers: {
        ...(who?.cookie ? { cookie: who.cookie } : {}),
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { payload: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    });
  return {
    get: (url: string, who?: Person) => call("GET", url, who),
    post: (url: string, body: unknown, who?: Person) => call("POST", url, who, body),
    put: (url: string, body: unknown, who?: Person) => call("PUT", url, who, body),
    patch: (url: string, body: unknown, who?: Person) => call("PATCH", url, who, body),
    delete: (url: string, who?: Person) => call("DELETE", url, who),
    /** Creates a character as `who` and answers it (throws unless 201). */
    async create(who: Person, fields: Partial<CharacterCreate> = {}): Promise<Character> {
      const res = await call("POST", "/api/characters?switch=T1", who, { name: "Mira", ...fields });
      if (res.statusCode !== 201) throw new Error(`create answered ${res.statusCode}: ${res.body}`);
      return res.json<Character>();
    },
    /** Uploads a file in a multipart body (field `file` unless told). */
    upload(
      url: string,
      who: Person | undefined,
      file: Buffer,
      opts: { field?: string; filename?: string } = {},
    ) {
      const { body, contentType } = multipartBody(file, opts.field ?? "file", opts.filename ?? "upload.bin");
      return h.app.inject({
        method: "POST",
        url,
        headers: { ...(who?.cookie ? { cookie: who.cookie } : {}), "content-type": contentType },
        payload: body,
      });
    },
  };
}

export function multipartBody(file: Buffer, field: string, filename: string) {
  const boundary = `----hearth${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, file, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** A small test image of the given format. */
export function testImage(format: "png" | "jpeg" | "webp" | "gif", width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .toFormat(format)
    .toBuffer();
}

/**
 * A "PNG bomb": a valid 20000 x 20000 grey PNG of zeros, a few hundred KB on disk and 400 MB
 * once decoded. Built by streaming deflate, so the test never holds the pixels either.
 */
export async function pngBomb(side = 20_000): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, "latin1");
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on("data", (d: Buffer) => parts.push(d));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  const rows = Buffer.alloc((side + 1) * 500); // 500 rows: a filter byte and zeros each
  for (let i = 0; i < side / 500; i++) {
    if (!deflate.write(rows)) await new Promise((resolve) => deflate.once("drain", resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", Buffer.concat(parts)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
