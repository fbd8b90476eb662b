import http, { type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import https from "node:https";
import { DownloadError } from "./errors.ts";
import { formatBytes } from "./format.ts";

/**
 * The model host over HTTP(S): one GET (with a Range when resuming), redirects followed by hand
 * so headers on every hop are seen, and failures worded for a person.
 */

const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Connection failures that mean "cannot get there from here", as opposed to a server that answered.
const UNREACHABLE = new Set([
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENETUNREACH",
  "ENETDOWN",
  "EHOSTUNREACH",
  "EHOSTDOWN",
]);
const SHA256_HEX = /^[0-9a-f]{64}$/;

export interface RequestContext {
  /** The URL the caller asked for; messages name it rather than a signed CDN address. */
  url: URL;
  signal: AbortSignal | undefined;
  idleTimeoutMs: number;
  /** Set when the idle timer fired, so the resulting socket error can be worded as a timeout. */
  timedOut: boolean;
}

/**
 * GETs `ctx.url` from byte `offset` on, following redirects, and picks up the sha256 the host
 * publishes for the file on any hop. Returns the first non-redirect answer, whatever its status.
 */
export async function openFollowingRedirects(
  offset: number,
  ctx: RequestContext,
): Promise<{ res: IncomingMessage; serverSha256: string | null }> {
  let current = ctx.url;
  let linkedSha: string | null = null;
  let etagSha: string | null = null;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const res = await get(current, offset, ctx);
    // Hugging Face puts the LFS file's sha256 in X-Linked-Etag on its redirect, not on the CDN answer.
    linkedSha ??= sha256FromEtag(res.headers["x-linked-etag"]);
    etagSha ??= sha256FromEtag(res.headers.etag);
    const location = res.headers.location;
    if (!REDIRECTS.has(res.statusCode ?? 0) || !location) return { res, serverSha256: linkedSha ?? etagSha };
    res.resume();
    current = new URL(location, current);
    if (current.protocol !== "http:" && current.protocol !== "https:") {
      throw new DownloadError(
        `${ctx.url.host} redirected to an unsupported address: ${current.href}`,
        "http",
      );
    }
  }
  throw new DownloadError(`Too many redirects for ${ctx.url.href}.`, "http");
}

function get(url: URL, offset: number, ctx: RequestContext): Promise<IncomingMessage> {
  const headers: Record<string, string> = { "user-agent": "hearth-models", "accept-encoding": "identity" };
  if (offset > 0) headers.range = `bytes=${offset}-`;
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    // `timeout` is the socket's idle time: it covers connecting, waiting for headers and a stalled body.
    const req = client.get(url, { headers, signal: ctx.signal, timeout: ctx.idleTimeoutMs }, resolve);
    req.on("timeout", () => {
      ctx.timedOut = true;
      req.destroy(new Error("idle timeout"));
    });
    req.on("error", (error) => reject(connectError(error, url, ctx)));
  });
}

function connectError(error: unknown, url: URL, ctx: RequestContext): DownloadError {
  if (ctx.signal?.aborted) return new DownloadError("Download cancelled.", "aborted");
  const advice = "Are you offline? Check the network connection (and any proxy or firewall), then try again.";
  if (ctx.timedOut) {
    return new DownloadError(
      `Could not reach ${url.host}: no answer within ${ctx.idleTimeoutMs / 1000} s. ${advice}`,
      "offline",
    );
  }
  const code = errorCode(error);
  if (code && UNREACHABLE.has(code))
    return new DownloadError(`Could not reach ${url.host} (${code}). ${advice}`, "offline");
  return new DownloadError(`Could not download from ${url.host}: ${(error as Error).message}`, "offline");
}

export function transferError(error: unknown, received: number, ctx: RequestContext): DownloadError {
  const kept = `${formatBytes(received)} kept; run the command again to resume.`;
  if (ctx.signal?.aborted) return new DownloadError(`Download cancelled, ${kept}`, "aborted");
  if (ctx.timedOut) {
    return new DownloadError(
      `The download stalled: nothing arrived from ${ctx.url.host} for ${ctx.idleTimeoutMs / 1000} s. ${kept}`,
      "interrupted",
    );
  }
  const reason = errorCode(error) ?? (error as Error).message;
  return new DownloadError(`The connection to ${ctx.url.host} was lost (${reason}). ${kept}`, "interrupted");
}

export function httpError(status: number, url: URL): DownloadError {
  if (status === 404)
    return new DownloadError(`Not found (HTTP 404): ${url.href}. Check the model name or URL.`, "http");
  if (status === 401 || status === 403) {
    return new DownloadError(
      `${url.host} refused the download (HTTP ${status}): ${url.href}. The file is private, or gated ` +
        "behind a licence you must accept on the website first.",
      "http",
    );
  }
  if (status >= 500)
    return new DownloadError(`${url.host} had a server error (HTTP ${status}). Try again later.`, "http");
  return new DownloadError(`${url.host} answered HTTP ${status} for ${url.href}.`, "http");
}

export function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DownloadError(`Not a valid URL: ${raw}`, "http");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new DownloadError(`Only http(s) URLs can be downloaded, not ${url.protocol}`, "http");
  }
  return url;
}

export function parseContentRange(
  header: string | undefined,
): { start: number; total: number | null } | null {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(header ?? "");
  if (!match) return null;
  return { start: Number(match[1]), total: match[2] === "*" ? null : Number(match[2]) };
}

/** A 64-hex ETag (optionally weak/quoted) is a sha256 of the content on Hugging Face. */
function sha256FromEtag(header: IncomingHttpHeaders[string]): string | null {
  const value = (Array.isArray(header) ? header[0] : header)
    ?.replace(/^W\//, "")
    .replaceAll('"', "")
    .toLowerCase();
  return value && SHA256_HEX.test(value) ? value : null;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
