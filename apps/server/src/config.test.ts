import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("HEARTH_TRUSTED_ORIGINS", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-config-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const trusted = (value?: string) =>
    loadConfig({
      HEARTH_DATA_DIR: dataDir,
      ...(value === undefined ? {} : { HEARTH_TRUSTED_ORIGINS: value }),
    }).trustedOrigins;

  it("is empty by default", () => {
    expect(trusted()).toEqual([]);
    expect(trusted(" , ")).toEqual([]);
  });

  it("holds origins as browsers send them: lower case, no default port, no trailing slash", () => {
    expect(trusted("https://Partner.Example:443/, http://localhost:8080,https://partner.example")).toEqual([
      "https://partner.example",
      "http://localhost:8080",
    ]);
  });

  it("refuses anything that is not an http(s) origin, naming it", () => {
    for (const bad of ["partner.example", "https://partner.example/app", "ftp://partner.example", "null"]) {
      expect(() => trusted(bad)).toThrow(ConfigError);
      expect(() => trusted(bad)).toThrow(bad);
    }
  });
});
