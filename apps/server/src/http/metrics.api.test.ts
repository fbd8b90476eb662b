import type { ApiError } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { startTestHearth } from "../../test/harness.ts";

/**
 * Who may read /metrics (decision 025): without a token, this machine only (a Prometheus beside
 * Hearth) unless HEARTH_METRICS_PUBLIC opens it; with a token, whoever sends it. No database is
 * involved, so one driver; each case starts its own Hearth.
 */
describe("who may read /metrics", { timeout: 180_000 }, () => {
  const TOKEN = "metrics-token-0123456789";
  /** The status of GET /metrics for each request, on a Hearth started with `env`. */
  const statuses = async (
    env: Record<string, string>,
    ...tries: { from: string; headers?: Record<string, string> }[]
  ) => {
    const h = await startTestHearth({ env });
    try {
      const answers: (number | string)[] = [];
      for (const { from, headers } of tries) {
        const res = await h.app.inject({ method: "GET", url: "/metrics", remoteAddress: from, headers });
        if (res.statusCode === 200) expect(res.body).toContain("hearth_process_cpu_user_seconds_total");
        else if (res.statusCode === 401) expect(res.json<ApiError>().code).toBe("unauthorized");
        else {
          expect(res.json<ApiError>()).toMatchObject({ code: "forbidden" });
          expect(res.json<ApiError>().message).toMatch(/HEARTH_METRICS_TOKEN.*HEARTH_METRICS_PUBLIC/);
        }
        answers.push(res.statusCode);
      }
      return answers;
    } finally {
      await h.stop();
    }
  };

  it("with no token, answers this machine and refuses other addresses with 403", async () => {
    expect(
      await statuses(
        {},
        { from: "127.0.0.1" },
        { from: "::1" },
        { from: "::ffff:127.0.0.1" },
        { from: "10.0.0.9" },
        { from: "203.0.113.7", headers: { authorization: `Bearer ${TOKEN}` } },
        // A client cannot make itself this machine by writing X-Forwarded-For without a trusted proxy.
        { from: "203.0.113.7", headers: { "x-forwarded-for": "127.0.0.1" } },
        // A proxy on this machine that Hearth does not trust, forwarding someone else's request.
        { from: "127.0.0.1", headers: { "x-forwarded-for": "203.0.113.7" } },
        { from: "127.0.0.1", headers: { "x-real-ip": "203.0.113.7" } },
        { from: "127.0.0.1", headers: { forwarded: "for=203.0.113.7" } },
      ),
    ).toEqual([200, 200, 200, 403, 403, 403, 403, 403, 403]);
  });

  it("behind a trusted proxy, answers only when every address on the way is this machine", async () => {
    expect(
      await statuses(
        { HEARTH_TRUST_PROXY: "true" },
        { from: "127.0.0.1" },
        { from: "127.0.0.1", headers: { "x-forwarded-for": "127.0.0.1" } },
        { from: "127.0.0.1", headers: { "x-forwarded-for": "203.0.113.7" } },
        { from: "127.0.0.1", headers: { "x-forwarded-for": "127.0.0.1, 203.0.113.7" } },
      ),
    ).toEqual([200, 200, 403, 403]);
  });

  it("with a token, answers whoever sends it, from anywhere, and nobody without it", async () => {
    const bearer = { authorization: `Bearer ${TOKEN}` };
    expect(
      await statuses(
        { HEARTH_METRICS_TOKEN: TOKEN },
        { from: "203.0.113.7", headers: bearer },
        { from: "127.0.0.1", headers: bearer },
        { from: "203.0.113.7" },
        { from: "127.0.0.1" },
        { from: "203.0.113.7", headers: { authorization: "Bearer wrong-token-0123456789" } },
      ),
    ).toEqual([200, 200, 401, 401, 401]);
  });

  it("HEARTH_METRICS_PUBLIC=true answers every address", async () => {
    expect(
      await statuses({ HEARTH_METRICS_PUBLIC: "true" }, { from: "203.0.113.7" }, { from: "127.0.0.1" }),
    ).toEqual([200, 200]);
  });
});
