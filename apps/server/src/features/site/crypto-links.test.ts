import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.ts";
import { readSiteFile, siteConfigOf } from "./settings.ts";

/**
 * The crypto page's payment links (accounts-billing-admin §2.2, /subscribe-crypto) come from the
 * operator's site.json, keyed by plan_id; none configured is an empty map, and a link that is not
 * an http(s) address stops the start with the reason.
 */
describe("crypto_links in site.json", () => {
  const dataDir = (file?: unknown) => {
    const dir = mkdtempSync(path.join(tmpdir(), "hearth-site-"));
    if (file !== undefined) writeFileSync(path.join(dir, "site.json"), JSON.stringify(file));
    return dir;
  };
  const site = (dir: string) => siteConfigOf(loadConfig({ HEARTH_DATA_DIR: dir }), readSiteFile(dir));

  it("is empty without a site.json, or one that names none", () => {
    expect(site(dataDir()).crypto_links).toEqual({});
    expect(site(dataDir({ footer: { socials: [] } })).crypto_links).toEqual({});
  });

  it("answers the operator's links by plan id", () => {
    const links = {
      "basic-1m": "https://pay.example/crypto/basic-monthly",
      "premium-1y": "https://pay.example/crypto/premium-yearly",
    };
    expect(site(dataDir({ crypto_links: links })).crypto_links).toEqual(links);
  });

  it("refuses a link that is not a web address, or a malformed plan id, naming the file", () => {
    const notWeb = dataDir({ crypto_links: { "basic-1m": "javascript:alert(1)" } });
    expect(() => readSiteFile(notWeb)).toThrow(/site\.json: crypto_links\.basic-1m/);
    const badId = dataDir({ crypto_links: { "Basic 1M": "https://pay.example/x" } });
    expect(() => readSiteFile(badId)).toThrow(/site\.json: crypto_links/);
  });
});
