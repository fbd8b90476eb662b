import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.ts";
import { hostAllowed, hostNameOf, isLoopbackAddress } from "./host-check.ts";

/** The names Hearth answers to (decision 025), one Host header at a time. */
describe("the host rules", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hearth-hosts-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const rules = (env: Record<string, string> = {}) => loadConfig({ HEARTH_DATA_DIR: dataDir, ...env });
  const answers = (host: string, env?: Record<string, string>) => {
    const name = hostNameOf(host);
    return name !== null && hostAllowed(name, rules(env));
  };

  it("accepts loopback names and IP literals on any port with nothing configured", () => {
    const accepted = [
      "localhost",
      "localhost:3000",
      "LOCALHOST:80",
      "localhost.",
      "app.localhost:5173",
      "127.0.0.1",
      "127.0.0.1:3000",
      "127.8.9.10:1",
      "[::1]",
      "[::1]:3000",
      "10.0.0.5:3000",
      "192.168.1.20",
      "203.0.113.9:443",
      "[fd00::1]:8080",
      "[2001:db8::7]",
    ];
    expect(accepted.filter((host) => !answers(host))).toEqual([]);
  });

  it("refuses every other name, and Host headers no browser would send", () => {
    const refused = [
      "rebind.example",
      "rebind.example:3000",
      "localhost.rebind.example",
      "127.0.0.1.nip.io",
      "mybox.lan",
      "evil@localhost",
      "localhost/evil",
      "local host",
      "localhost:3000:1",
      "",
    ];
    expect(refused.filter((host) => answers(host))).toEqual([]);
  });

  it("accepts HEARTH_ALLOWED_HOSTS' names, a leading dot or *. for the name and every name under it", () => {
    const env = { HEARTH_ALLOWED_HOSTS: " MyBox.LAN , .home.example,*.corp.example" };
    expect(rules(env).allowedHosts).toEqual(["mybox.lan", ".home.example", ".corp.example"]);
    for (const host of ["mybox.lan", "mybox.lan:3000", "MYBOX.lan.", "home.example", "tv.home.example:80"])
      expect(answers(host, env), host).toBe(true);
    for (const host of ["corp.example", "a.b.corp.example", "[::1]"])
      expect(answers(host, env), host).toBe(true);
    for (const host of [
      "other.lan",
      "x.mybox.lan",
      "evilhome.example",
      "home.example.evil",
      "corp.example.x",
    ])
      expect(answers(host, env), host).toBe(false);
    expect(answers("anything.example", { HEARTH_ALLOWED_HOSTS: "*" })).toBe(true);
  });

  it("accepts PUBLIC_URL's host name (on any port) besides loopback, IP literals and the allowed names", () => {
    const env = { PUBLIC_URL: "https://Chat.Example.com/hearth", HEARTH_ALLOWED_HOSTS: "mybox.lan" };
    for (const host of [
      "chat.example.com",
      "chat.example.com:443",
      "localhost:3000",
      "10.1.2.3",
      "mybox.lan",
    ])
      expect(answers(host, env), host).toBe(true);
    for (const host of ["rebind.example", "www.chat.example.com", "example.com"])
      expect(answers(host, env), host).toBe(false);
  });

  it("refuses an allowed-hosts value that is not a host name, naming it", () => {
    for (const bad of ["http://mybox.lan", "mybox.lan:3000", "mybox.lan/x", "my box", "..lan", "*.*.lan"]) {
      expect(() => rules({ HEARTH_ALLOWED_HOSTS: bad }), bad).toThrow(ConfigError);
      expect(() => rules({ HEARTH_ALLOWED_HOSTS: bad }), bad).toThrow(/HEARTH_ALLOWED_HOSTS/);
    }
  });

  it("refuses HEARTH_METRICS_PUBLIC beside a metrics token, which would mean two things at once", () => {
    expect(rules({ HEARTH_METRICS_PUBLIC: "true" }).metricsPublic).toBe(true);
    expect(rules().metricsPublic).toBe(false);
    const both = { HEARTH_METRICS_PUBLIC: "true", HEARTH_METRICS_TOKEN: "metrics-token-0123456789" };
    expect(() => rules(both)).toThrow(/HEARTH_METRICS_PUBLIC/);
  });

  it("knows loopback addresses, also IPv4-mapped", () => {
    for (const address of ["127.0.0.1", "127.255.0.9", "::1", "::ffff:127.0.0.1"])
      expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ["10.0.0.1", "::ffff:10.0.0.1", "fe80::1", "128.0.0.1", "", undefined])
      expect(isLoopbackAddress(address), String(address)).toBe(false);
  });
});
