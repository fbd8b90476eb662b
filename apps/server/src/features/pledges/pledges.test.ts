import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parsePledgeTiers } from "../../config.ts";
import { seal, unseal } from "./sealed.ts";
import { tierFor } from "./service.ts";

describe("pledge tiers", () => {
  it("reads HEARTH_PATREON_TIERS, the default when unset", () => {
    expect(parsePledgeTiers(undefined)).toEqual([
      { role: "premium", minCents: 2500 },
      { role: "basic", minCents: 1500 },
      { role: "minimal", minCents: 500 },
    ]);
    expect(parsePledgeTiers(" basic : 300 , premium:900")).toEqual([
      { role: "premium", minCents: 900 },
      { role: "basic", minCents: 300 },
    ]);
    for (const bad of ["gold:500", "basic", "basic:-1", "basic:0", "basic:5.5"]) {
      expect(() => parsePledgeTiers(bad), bad).toThrow(/tier:cents/);
    }
  });

  it("maps an amount to the highest tier it reaches", () => {
    const tiers = parsePledgeTiers("minimal:500,basic:1500,premium:2500");
    expect(tierFor(tiers, 499)).toBeNull();
    expect(tierFor(tiers, 500)).toBe("minimal");
    expect(tierFor(tiers, 1499)).toBe("minimal");
    expect(tierFor(tiers, 1500)).toBe("basic");
    expect(tierFor(tiers, 2499)).toBe("basic");
    expect(tierFor(tiers, 100_000)).toBe("premium");
  });
});

describe("sealed values", () => {
  const shape = z.object({ u: z.string() });
  const now = new Date("2031-02-03T04:05:06Z");
  const later = (seconds: number) => new Date(now.getTime() + seconds * 1000);

  it("opens what it sealed until it expires", () => {
    const token = seal("s".repeat(32), "state", "me", { u: "me" }, 60, now);
    expect(unseal("s".repeat(32), "state", "me", token, shape, later(59))).toEqual({ u: "me" });
    expect(unseal("s".repeat(32), "state", "me", token, shape, later(60))).toBeNull();
  });

  it("refuses another secret, another member, another purpose, a changed payload and a wrong shape", () => {
    const token = seal("s".repeat(32), "state", "me", { u: "me" }, 60, now);
    expect(unseal("t".repeat(32), "state", "me", token, shape, now)).toBeNull();
    // Made for one member, it does not open for another.
    expect(unseal("s".repeat(32), "state", "you", token, shape, now)).toBeNull();
    expect(unseal("s".repeat(32), "result", "me", token, shape, now)).toBeNull();
    const [, signature] = token.split(".");
    const other = Buffer.from(JSON.stringify({ u: "you", exp: 9e9 })).toString("base64url");
    expect(unseal("s".repeat(32), "state", "me", `${other}.${signature}`, shape, now)).toBeNull();
    expect(unseal("s".repeat(32), "state", "me", token, z.object({ n: z.string() }), now)).toBeNull();
    for (const junk of ["", ".", "a.b.c", "%%%.%%%"])
      expect(unseal("s".repeat(32), "state", "me", junk, shape, now)).toBeNull();
  });
});
