import { createHash, randomBytes } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local model host for the download tests, on 127.0.0.1 and a random port. It serves one
 * GGUF-looking file (magic + version 3 + random bytes) along routes that misbehave in the ways
 * real hosts do. Every request's path and Range header is recorded.
 */
export interface GgufTestServer {
  /** Full URL of a route, e.g. url("/model.gguf"). */
  url(route: string): string;
  file: Buffer;
  sha256: string;
  /** Bytes sent before /cut.gguf drops the connection and /stall.gguf goes silent. */
  cutAt: number;
  requests: { path: string; range: string | undefined }[];
  rangesFor(path: string): (string | undefined)[];
  close(): Promise<void>;
}

export function makeGgufBytes(size: number): Buffer {
  const header = Buffer.alloc(8);
  header.write("GGUF", 0, "latin1");
  header.writeUInt32LE(3, 4);
  return Buffer.concat([header, randomBytes(size - header.length)]);
}

/** Serves `content` when it is a Buffer (a real model, say), else that many random GGUF-looking bytes. */
export async function startGgufServer(content: number | Buffer = 3 * 1024 * 1024): Promise<GgufTestServer> {
  const file = Buffer.isBuffer(content) ? content : makeGgufBytes(content);
  const sha256 = createHash("sha256").update(file).digest("hex");
  const cutAt = 1024 * 1024;
  const requests: GgufTestServer["requests"] = [];
  const seen = new Map<string, number>();

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const key = url.pathname + url.search;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    requests.push({ path: key, range: req.headers.range });

    switch (url.pathname) {
      case "/model.gguf":
      case "/x.gguf":
        return serveWithRanges(req, res, file);
      case "/hf/model.gguf":
        // Like huggingface.co/…/resolve/…: a redirect that carries the LFS sha256.
        res.writeHead(302, { location: "/model.gguf", "x-linked-etag": `"${sha256}"` });
        return res.end();
      case "/redirect-loop.gguf":
        res.writeHead(302, { location: "/redirect-loop.gguf" });
        return res.end();
      case "/bad-etag.gguf":
        res.writeHead(200, { "content-length": file.length, etag: `"${"0".repeat(64)}"` });
        return res.end(file);
      case "/no-range.gguf":
        res.writeHead(200, { "content-length": file.length });
        return res.end(file);
      case "/cut.gguf":
        if (count > 1) return serveWithRanges(req, res, file);
        res.writeHead(200, { "content-length": file.length });
        return res.write(file.subarray(0, cutAt), () => res.destroy());
      case "/stall.gguf":
        if (count > 1) return serveWithRanges(req, res, file);
        res.writeHead(200, { "content-length": file.length });
        return res.write(file.subarray(0, cutAt)); // …and then nothing: the client must time out.
      case "/page.html":
        res.writeHead(200, { "content-type": "text/html" });
        return res.end("<!DOCTYPE html><html><body>Sign in to download</body></html>");
      case "/private.gguf":
        res.writeHead(403);
        return res.end("Forbidden");
      default:
        res.writeHead(404);
        return res.end("Not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: (route) => `http://127.0.0.1:${port}${route}`,
    file,
    sha256,
    cutAt,
    requests,
    rangesFor: (path) => requests.filter((r) => r.path === path).map((r) => r.range),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `Range: bytes=N-` with 206 (or 416 past the end), anything else with the whole file. */
function serveWithRanges(req: IncomingMessage, res: ServerResponse, file: Buffer): void {
  const match = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
  if (!match) {
    res.writeHead(200, { "content-length": file.length, "accept-ranges": "bytes" });
    res.end(file);
    return;
  }
  const start = Number(match[1]);
  if (start >= file.length) {
    res.writeHead(416, { "content-range": `bytes */${file.length}` });
    res.end();
    return;
  }
  res.writeHead(206, {
    "content-length": file.length - start,
    "content-range": `bytes ${start}-${file.length - 1}/${file.length}`,
  });
  res.end(file.subarray(start));
}

/** A port on 127.0.0.1 with nothing listening (briefly bound, then released). */
export async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
