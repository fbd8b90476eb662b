import { readFileSync } from "node:fs";
import path from "node:path";
import type { z } from "zod";

/**
 * An operator's optional JSON file in the data directory (site.json, plans.json), checked by its
 * schema once at start: none answers null; a broken one throws with the file and the reason, so
 * the start stops and says what to fix.
 */
export function readDataFile<S extends z.ZodType>(
  dataDir: string,
  name: string,
  schema: S,
): z.output<S> | null {
  const file = path.join(dataDir, name);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue ? `${issue.path.join(".")} ${issue.message}`.trim() : "not valid"}`);
  }
  return parsed.data;
}
