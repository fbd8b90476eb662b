import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ApiError, Sale, SiteConfig } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { loadConfig } from "../../config.ts";
import { activeOffer, readSale } from "./index.ts";

/** GET /api/sale and the site's sale_active, by the switch and the dates in site.json. */
describe("the sale endpoint", () => {
  const hearths: TestHearth[] = [];
  const start = async (env: Record<string, string>) => {
    const h = await startTestHearth({ env });
    hearths.push(h);
    return h;
  };
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), "hearth-sale-"));
  });
  afterAll(async () => {
    for (const h of hearths) await h.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers the default sale while HEARTH_SALE is on", async () => {
    const h = await start({ HEARTH_SALE: "true" });
    const res = await h.app.inject({ method: "GET", url: "/api/sale" });
    expect(res.statusCode, res.body).toBe(200);
    const sale = res.json<Sale>();
    expect(sale.dates_label).toBe("MAY 30 - JUNE 3");
    expect(Date.parse(sale.ends_at)).toBeGreaterThan(Date.now());
    expect(sale.offers).toHaveLength(6);
    expect(sale.offers.find((o) => o.offer_id === "birthday-minimal-1m")).toMatchObject({
      price: 0.99,
      regular_price: 4.99,
      percent_off: 80,
    });
    const site = (await h.app.inject({ method: "GET", url: "/api/site" })).json<SiteConfig>();
    expect(site.sale_active).toBe(true);
  });

  it("answers 404 when the sale is off", async () => {
    const h = await start({});
    const res = await h.app.inject({ method: "GET", url: "/api/sale" });
    expect(res.statusCode).toBe(404);
    expect(res.json<ApiError>().message).toBe("There is no sale now.");
    expect((await h.app.inject({ method: "GET", url: "/api/site" })).json<SiteConfig>().sale_active).toBe(
      false,
    );
  });

  it("follows the dates and offers of site.json, and checkout's lookup agrees", async () => {
    const now = Date.now();
    const day = 24 * 3600 * 1000;
    const dir = (name: string, sale: object) => {
      const d = path.join(dataDir, name);
      mkdirSync(d, { recursive: true });
      writeFileSync(path.join(d, "site.json"), JSON.stringify({ sale }));
      return d;
    };
    const running = {
      title: "Five years of Hearth",
      starts_at: new Date(now - day).toISOString(),
      ends_at: new Date(now + 2 * day).toISOString(),
      offers: [
        { offer_id: "fan-deal", plan_id: "basic-1m", role: "basic", regular_amount: 1500, amount: 500 },
      ],
    };
    const over = {
      ...running,
      starts_at: new Date(now - 3 * day).toISOString(),
      ends_at: new Date(now - day).toISOString(),
    };

    // site.json is read at start, so each Hearth gets a data directory with its own.
    const on = await start({ HEARTH_SALE: "true", HEARTH_DATA_DIR: dir("on", running) });
    const sale = (await on.app.inject({ method: "GET", url: "/api/sale" })).json<Sale>();
    expect(sale).toMatchObject({ title: "Five years of Hearth", ends_at: running.ends_at });
    expect(sale.offers).toEqual([
      expect.objectContaining({
        offer_id: "fan-deal",
        plan_id: "basic-1m",
        price: 5,
        regular_price: 15,
        percent_off: 67,
      }),
    ]);
    expect(activeOffer(readSale(on.config), "fan-deal")?.amount).toBe(500);

    const ended = await start({ HEARTH_SALE: "true", HEARTH_DATA_DIR: dir("over", over) });
    expect((await ended.app.inject({ method: "GET", url: "/api/sale" })).statusCode).toBe(404);
    expect((await ended.app.inject({ method: "GET", url: "/api/site" })).json<SiteConfig>().sale_active).toBe(
      false,
    );
    expect(activeOffer(readSale(ended.config), "fan-deal")).toBeNull();
  });

  it("refuses to start with a broken sale in site.json", () => {
    const d = path.join(dataDir, "broken");
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, "site.json"), JSON.stringify({ sale: { ends_at: "soon" } }));
    expect(() => readSale(loadConfig({ HEARTH_DATA_DIR: d, HEARTH_SALE: "true" }))).toThrow(/sale\.ends_at/);
  });
});
