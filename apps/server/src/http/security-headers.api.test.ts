import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../test/harness.ts";
import { contentSecurityPolicy, installSecurityHeaders } from "./security-headers.ts";

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Record<string, string[]> {
  expect(typeof header).toBe("string");
  return Object.fromEntries(
    String(header)
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name as string, values]),
  );
}

describe("security headers on every answer", () => {
  let h: TestHearth;
  let webDist: string;

  beforeAll(async () => {
    // A stand-in for the built client: the HTML and one hashed asset.
    webDist = mkdtempSync(path.join(tmpdir(), "hearth-web-"));
    mkdirSync(path.join(webDist, "assets"));
    writeFileSync(path.join(webDist, "index.html"), '<!doctype html><script src="/assets/a.js"></script>');
    writeFileSync(path.join(webDist, "assets/a.js"), "console.log(1)");
    h = await startTestHearth({ env: { HEARTH_WEB_DIST: webDist } });
  });
  afterAll(async () => {
    await h?.stop();
    rmSync(webDist, { recursive: true, force: true });
  });

  it("the web client's HTML, its files, JSON, errors and refusals all carry them", async () => {
    const answers = [
      await h.app.inject({ method: "GET", url: "/" }),
      await h.app.inject({ method: "GET", url: "/chats/some-page" }),
      await h.app.inject({ method: "GET", url: "/assets/a.js" }),
      await h.app.inject({ method: "GET", url: "/api/config" }),
      await h.app.inject({ method: "GET", url: "/api/no-such-route" }),
      await h.app.inject({ method: "GET", url: "/api/me" }),
      await h.app.inject({
        method: "POST",
        url: "/api/personas",
        headers: { origin: "http://evil.example" },
      }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 404, 401, 403]);
    expect(answers[0]?.headers["content-type"]).toMatch(/text\/html/);
    for (const res of answers) {
      const csp = directives(res.headers["content-security-policy"]);
      expect(csp["script-src"]).toEqual(["'self'"]);
      expect(csp["default-src"]).toEqual(["'self'"]);
      expect(csp["connect-src"]).toEqual(["'self'"]);
      expect(csp["object-src"]).toEqual(["'none'"]);
      expect(csp["frame-ancestors"]).toEqual(["'none'"]);
      expect(csp["img-src"]).toEqual(["'self'", "data:", "blob:"]);
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(res.headers["x-frame-options"]).toBe("DENY");
    }
  });
});

describe("the policy follows the configuration", () => {
  it("lets the trusted (partner) origins frame Hearth, and drops X-Frame-Options, which cannot say so", async () => {
    const h = await startTestHearth({ env: { HEARTH_TRUSTED_ORIGINS: "https://partner.example" } });
    try {
      const res = await h.app.inject({ method: "GET", url: "/api/config" });
      expect(directives(res.headers["content-security-policy"])["frame-ancestors"]).toEqual([
        "'self'",
        "https://partner.example",
      ]);
      expect(res.headers["x-frame-options"]).toBeUndefined();
    } finally {
      await h.stop();
    }
  });

  it("allows images from the S3 public address when uploads are served from there", () => {
    const s3 = {
      bucket: "b",
      endpoint: null,
      region: "us-east-1",
      accessKeyId: "k",
      secretAccessKey: "s",
      publicUrl: "https://cdn.example.com/hearth/",
    };
    const csp = contentSecurityPolicy({ trustedOrigins: [], storage: { filesDir: "/tmp", s3 } });
    expect(directives(csp)["img-src"]).toEqual(["'self'", "data:", "blob:", "https://cdn.example.com"]);
  });

  it("reaches event streams too, which are written past fastify's reply", async () => {
    const app = Fastify();
    installSecurityHeaders(app, { trustedOrigins: [], storage: { filesDir: "/tmp", s3: null } });
    app.get("/stream", (_req, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { "content-type": "text/event-stream" });
      reply.raw.end("data: {}\n\n");
    });
    const res = await app.inject({ method: "GET", url: "/stream" });
    expect(res.headers["content-type"]).toBe("text/event-stream");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toContain("script-src 'self'");
    await app.close();
  });

  it("lets Stripe's script, API and 3-D Secure frames in when Stripe is set up, and only then", () => {
    const stripe = {
      secretKey: "sk_test_x",
      publishableKey: "pk_test_x",
      webhookSecret: "whsec_x",
      apiUrl: null,
      scriptUrl: "https://js.stripe.com/v3/",
      automaticTax: false,
    };
    const storage = { filesDir: "/tmp", s3: null };
    const csp = directives(
      contentSecurityPolicy({ trustedOrigins: [], storage, billing: { stripe, manualInstructions: null } }),
    );
    expect(csp["script-src"]).toEqual(["'self'", "https://js.stripe.com"]);
    expect(csp["connect-src"]).toEqual(["'self'", "https://api.stripe.com"]);
    expect(csp["frame-src"]).toEqual(["'self'", "https://js.stripe.com", "https://hooks.stripe.com"]);
    const without = directives(contentSecurityPolicy({ trustedOrigins: [], storage }));
    expect(without["script-src"]).toEqual(["'self'"]);
    expect(without["frame-src"]).toEqual(["'self'"]);
  });

  it("promises HTTPS (Strict-Transport-Security) only when the public address is https", async () => {
    const storage = { filesDir: "/tmp", s3: null };
    const hsts = async (publicUrl: string | null) => {
      const app = Fastify();
      installSecurityHeaders(app, { trustedOrigins: [], storage, publicUrl });
      app.get("/", async () => "page");
      const res = await app.inject({ method: "GET", url: "/" });
      await app.close();
      return res.headers["strict-transport-security"];
    };
    expect(await hsts("https://chat.example.com")).toBe("max-age=15552000");
    expect(await hsts("http://localhost:3000")).toBeUndefined();
    expect(await hsts(null)).toBeUndefined();
  });

  it("lets only Hearth itself frame the 3-D Secure return page; every other page is framed by no one", async () => {
    const app = Fastify();
    installSecurityHeaders(app, { trustedOrigins: [], storage: { filesDir: "/tmp", s3: null } });
    app.get("/*", async () => "page");
    const framed = await app.inject({ method: "GET", url: "/checkout/3ds-complete?order_id=1" });
    expect(directives(framed.headers["content-security-policy"] as string)["frame-ancestors"]).toEqual([
      "'self'",
    ]);
    expect(framed.headers["x-frame-options"]).toBe("SAMEORIGIN");
    const other = await app.inject({ method: "GET", url: "/checkout/3ds-completely" });
    expect(directives(other.headers["content-security-policy"] as string)["frame-ancestors"]).toEqual([
      "'none'",
    ]);
    expect(other.headers["x-frame-options"]).toBe("DENY");
    await app.close();
  });
});
