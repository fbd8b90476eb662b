import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_PERSONA_LIMITS, loadConfig, parsePersonaLimits } from "../../config.ts";
import { viewerFromUser } from "../accounts/viewer.ts";
import { assertMayCreatePersona, personaLimitFor } from "./policy.ts";

describe("HEARTH_PERSONA_LIMITS", () => {
  it("defaults to free 3, minimal 10, basic 25, premium 50", () => {
    expect(parsePersonaLimits(undefined)).toEqual({ free: 3, minimal: 10, basic: 25, premium: 50 });
    expect(parsePersonaLimits("  ")).toEqual(DEFAULT_PERSONA_LIMITS);
  });

  it("reads tier:count pairs; 0 means none, unlimited means no limit, left-out tiers keep defaults", () => {
    expect(parsePersonaLimits("free:1, premium : unlimited ,basic:0,")).toEqual({
      free: 1,
      minimal: 10,
      basic: 0,
      premium: null,
    });
    expect(parsePersonaLimits("FREE:5,Minimal:UNLIMITED")).toMatchObject({ free: 5, minimal: null });
  });

  it("refuses unknown tiers and bad counts with a readable configuration error", () => {
    for (const bad of ["gold:5", "free", "free:-1", "free:3.5", "free:lots", "admin:5", "free=3"]) {
      expect(() => parsePersonaLimits(bad), bad).toThrow(/tier:count/);
    }
    const dir = mkdtempSync(path.join(tmpdir(), "hearth-config-"));
    expect(() => loadConfig({ HEARTH_DATA_DIR: dir, HEARTH_PERSONA_LIMITS: "gold:5" })).toThrow(ConfigError);
    expect(() => loadConfig({ HEARTH_DATA_DIR: dir, HEARTH_PERSONA_LIMITS: "gold:5" })).toThrow(
      /HEARTH_PERSONA_LIMITS/,
    );
    expect(loadConfig({ HEARTH_DATA_DIR: dir, HEARTH_PERSONA_LIMITS: "free:7" }).personaLimits.free).toBe(7);
  });
});

describe("persona limit of a viewer", () => {
  const limits = { free: 2, minimal: 5, basic: 10, premium: 20 };
  const viewer = (o: { role?: string; status?: string; isAdmin?: boolean }) =>
    viewerFromUser({ id: "u", email: "u@example.com", name: "U", createdAt: new Date(), ...o });

  it("follows the effective tier: paid tiers while active or cancelled, else free; admins unlimited", () => {
    expect(personaLimitFor(viewer({}), limits)).toBe(2);
    expect(personaLimitFor(viewer({ role: "basic", status: "active" }), limits)).toBe(10);
    expect(personaLimitFor(viewer({ role: "basic", status: "cancelled" }), limits)).toBe(10);
    expect(personaLimitFor(viewer({ role: "premium", status: "expired" }), limits)).toBe(2);
    expect(personaLimitFor(viewer({ role: "premium", status: "grace" }), limits)).toBe(2);
    expect(personaLimitFor(viewer({ isAdmin: true }), limits)).toBeNull();
  });

  it("refuses at the limit, not below it", () => {
    const v = viewer({ role: "minimal", status: "active" });
    expect(() => assertMayCreatePersona(v, 4, limits)).not.toThrow();
    expect(() => assertMayCreatePersona(v, 5, limits)).toThrow(/up to 5 personas/);
    expect(() => assertMayCreatePersona(viewer({}), 1, { ...limits, free: 1 })).toThrow(/up to 1 persona on/);
    expect(() => assertMayCreatePersona(viewer({ isAdmin: true }), 10_000, limits)).not.toThrow();
  });
});
