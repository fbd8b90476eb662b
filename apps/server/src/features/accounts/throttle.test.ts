import { isSafeImageAddress } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { inWords } from "./allowance.ts";
import { untrustedProxyWarning } from "./auth-routes.ts";
import { addressKey } from "./throttle.ts";

describe("addressKey", () => {
  it("counts an IPv4 client by its address, however it is written", () => {
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  it("counts an IPv6 client by its /64, so hopping within it gains nothing", () => {
    const key = addressKey("2001:db8:1:2::1");
    expect(key).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:ffff:ffff:fffe")).toBe(key);
    expect(addressKey("2001:db8:1:3::1")).not.toBe(key);
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });
});

describe("inWords", () => {
  it("says how long to wait in the largest sensible unit, rounded up", () => {
    expect(inWords(1)).toBe("1 second");
    expect(inWords(45)).toBe("45 seconds");
    expect(inWords(60)).toBe("1 minute");
    expect(inWords(61)).toBe("2 minutes");
    expect(inWords(3600)).toBe("1 hour");
    expect(inWords(86_000)).toBe("24 hours");
  });
});

describe("isSafeImageAddress", () => {
  it("allows http(s) addresses and files Hearth serves, nothing that can run or embed", () => {
    for (const ok of [
      "https://cdn.example.com/a.png",
      "http://192.168.1.5:3000/x.webp",
      "/api/files/avatars/a-512.webp",
    ]) {
      expect(isSafeImageAddress(ok), ok).toBe(true);
    }
    for (const bad of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:image/png;base64,AAAA",
      "vbscript:msgbox",
      "//evil.example/a.png",
      "/api/files/../secret",
      "/api/files//evil.example",
      "/somewhere/else.png",
      "https://user:pass@example.com/a.png",
      "https://example.com/a b.png",
      "",
    ]) {
      expect(isSafeImageAddress(bad), bad).toBe(false);
    }
  });
});

describe("untrustedProxyWarning", () => {
  it("warns when requests come through a proxy Hearth does not trust, and only then", () => {
    expect(untrustedProxyWarning(false, { "x-forwarded-for": "198.51.100.7" })).toMatch(/HEARTH_TRUST_PROXY/);
    expect(untrustedProxyWarning(true, { "x-forwarded-for": "198.51.100.7" })).toBeNull();
    expect(untrustedProxyWarning(false, {})).toBeNull();
  });
});
