import { AwsClient } from "aws4fetch";
import {
  assertValidKey,
  FILES_ROUTE_PREFIX,
  type FileStorage,
  isValidKey,
  type StoredFile,
} from "../ports/storage.ts";

export interface S3StorageOptions {
  bucket: string;
  /** e.g. https://s3.eu-west-1.amazonaws.com, http://minio:9000; AWS's regional endpoint when unset. */
  endpoint: string | null;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Where browsers fetch objects directly (a public bucket or CDN); unset serves them through /api/files. */
  publicUrl: string | null;
}

/**
 * S3-compatible object storage (AWS S3, MinIO, R2, Backblaze, ...) through signed fetch calls.
 * Path-style addressing (`endpoint/bucket/key`) works on every S3-compatible server.
 */
export class S3FileStorage implements FileStorage {
  readonly driver = "s3" as const;
  private client: AwsClient;
  private base: string;

  constructor(private opts: S3StorageOptions) {
    this.client = new AwsClient({
      accessKeyId: opts.accessKeyId,
      secretAccessKey: opts.secretAccessKey,
      region: opts.region,
      service: "s3",
      // Retries only cover 5xx and network failures of idempotent object calls.
      retries: 2,
    });
    const endpoint = (opts.endpoint ?? `https://s3.${opts.region}.amazonaws.com`).replace(/\/+$/, "");
    this.base = `${endpoint}/${encodeURIComponent(opts.bucket)}`;
  }

  private objectUrl(key: string): string {
    assertValidKey(key);
    return `${this.base}/${key}`;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const res = await this.client.fetch(this.objectUrl(key), {
      method: "PUT",
      body: new Uint8Array(body),
      headers: {
        "content-type": contentType,
        // Keys name immutable content (a new upload gets a new key), so caches may keep them.
        "cache-control": "public, max-age=31536000, immutable",
      },
    });
    await expectOk(res, `PUT ${key}`);
  }

  async get(key: string): Promise<StoredFile | null> {
    const res = await this.client.fetch(this.objectUrl(key), { method: "GET" });
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    await expectOk(res, `GET ${key}`, false);
    const body = Buffer.from(await res.arrayBuffer());
    return { body, contentType: res.headers.get("content-type") ?? "application/octet-stream" };
  }

  async delete(key: string): Promise<void> {
    const res = await this.client.fetch(this.objectUrl(key), { method: "DELETE" });
    if (res.status === 404) return;
    await expectOk(res, `DELETE ${key}`);
  }

  url(key: string): string {
    assertValidKey(key);
    return this.opts.publicUrl
      ? `${this.opts.publicUrl.replace(/\/+$/, "")}/${key}`
      : `${FILES_ROUTE_PREFIX}${key}`;
  }

  /** ListObjectsV2, a page of up to 1000 keys at a time. */
  async *list(): AsyncIterable<string> {
    let token: string | null = null;
    do {
      const query = new URLSearchParams({ "list-type": "2", "max-keys": "1000" });
      if (token) query.set("continuation-token", token);
      const res = await this.client.fetch(`${this.base}?${query}`, { method: "GET" });
      if (!res.ok) await expectOk(res, `LIST bucket ${this.opts.bucket}`);
      const xml = await res.text();
      for (const match of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) {
        const key = decodeXml(match[1] ?? "");
        if (isValidKey(key)) yield key;
      }
      const truncated = /<IsTruncated>true<\/IsTruncated>/.test(xml);
      token = truncated
        ? decodeXml(/<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1] ?? "")
        : null;
    } while (token);
  }

  async ping(): Promise<void> {
    const res = await this.client.fetch(this.base, { method: "HEAD" });
    await expectOk(res, `HEAD bucket ${this.opts.bucket}`);
  }
}

function decodeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, "&");
}

async function expectOk(res: Response, what: string, drain = true): Promise<void> {
  if (res.ok) {
    if (drain) await res.body?.cancel();
    return;
  }
  const detail = (await res.text().catch(() => "")).slice(0, 300);
  const code = /<Code>([^<]+)<\/Code>/.exec(detail)?.[1];
  throw new Error(`S3 ${what} failed: ${res.status}${code ? ` ${code}` : ""}`);
}
