import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Decision 010: outside a feature, only its index.ts is imported. Schemas may reference each
// other's tables (foreign keys), queries may join another feature's table read-only, and the
// command line loads a feature's cli.ts lazily.

const SRC = path.resolve(import.meta.dirname, "..");
const FEATURES = path.join(SRC, "features");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    const isTestCode = /\.test\.ts$/.test(entry.name) || /test-(support|helpers)\.ts$/.test(entry.name);
    return entry.name.endsWith(".ts") && !isTestCode ? [full] : [];
  });
}

/** The feature a file belongs to and its path inside it, or null outside features/. */
function featureOf(file: string): { name: string; inner: string } | null {
  const rel = path.relative(FEATURES, file);
  if (rel.startsWith("..")) return null;
  const [name, ...rest] = rel.split(path.sep);
  return name && rest.length ? { name, inner: rest.join("/") } : null;
}

function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)) {
    if (match[1]) found.push(match[1]);
  }
  return found;
}

/** Why an import crosses a boundary it may not, or null when it is allowed. */
export function boundaryViolation(fromFile: string, target: string): string | null {
  const to = featureOf(target);
  if (!to) return null;
  const from = featureOf(fromFile);
  if (from?.name === to.name) return null;
  if (to.inner === "index.ts") return null;
  const base = path.basename(fromFile);
  if (to.inner === "schema.ts" && (base === "schema.ts" || base.endsWith("queries.ts"))) return null;
  if (to.inner === "cli.ts" && path.relative(SRC, fromFile) === path.join("cli", "index.ts")) return null;
  return `${path.relative(SRC, fromFile)} imports features/${to.name}/${to.inner}; use features/${to.name}/index.ts`;
}

describe("feature boundaries (decision 010)", () => {
  it("crosses into another feature only through its index.ts", () => {
    const violations = sourceFiles(SRC).flatMap((file) =>
      importsOf(readFileSync(file, "utf8"))
        .map((spec) => boundaryViolation(file, path.resolve(path.dirname(file), spec)))
        .filter((v): v is string => v !== null),
    );
    expect(violations).toEqual([]);
  });

  it("catches a reach into another feature's internals", () => {
    const worker = path.join(FEATURES, "chats", "generation", "worker.ts");
    expect(boundaryViolation(worker, path.join(FEATURES, "accounts", "schema.ts"))).toMatch(/use features/);
    expect(boundaryViolation(worker, path.join(FEATURES, "accounts", "viewer.ts"))).toMatch(/use features/);
    expect(boundaryViolation(worker, path.join(FEATURES, "accounts", "index.ts"))).toBeNull();
    expect(boundaryViolation(worker, path.join(FEATURES, "chats", "queries.ts"))).toBeNull();
    expect(
      boundaryViolation(path.join(SRC, "app.ts"), path.join(FEATURES, "characters", "service.ts")),
    ).toMatch(/use features/);
  });

  it("keeps vendor libraries with their owners: better-auth inside accounts, sharp in its adapter", () => {
    const users = (pkg: RegExp) =>
      sourceFiles(SRC)
        .filter((file) => pkg.test(readFileSync(file, "utf8")))
        .map((file) => path.relative(SRC, file));
    const betterAuth = users(/from "better-auth/);
    expect(betterAuth.length).toBeGreaterThan(0);
    for (const file of betterAuth)
      expect(file.startsWith(path.join("features", "accounts") + path.sep)).toBe(true);
    expect(users(/from "sharp"/)).toEqual([path.join("adapters", "sharp-images.ts")]);
  });
});
