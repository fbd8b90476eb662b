import { readFile } from "node:fs/promises";
import path from "node:path";
import type { PageSlug } from "@hearth/contract";
import { repoRoot } from "../../config.ts";

/** The pages bundled with Hearth; an operator's `$HEARTH_DATA_DIR/pages/<slug>.md` replaces one. */
export const BUNDLED_PAGES = path.join(repoRoot(), "apps/server/content/pages");

/**
 * A page's Markdown, read on each request so an operator's new file shows without a restart.
 * The slug comes from the contract's closed list, so it can never name another path.
 */
export async function readPage(dataDir: string, slug: PageSlug): Promise<string> {
  try {
    return await readFile(path.join(dataDir, "pages", `${slug}.md`), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  return readFile(path.join(BUNDLED_PAGES, `${slug}.md`), "utf8");
}
