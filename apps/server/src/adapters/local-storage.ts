import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  assertValidKey,
  contentTypeOf,
  FILES_ROUTE_PREFIX,
  type FileStorage,
  isValidKey,
  type StoredFile,
} from "../ports/storage.ts";

/** Files on the local disk (the embedded default: `$HEARTH_DATA_DIR/files`), served by /api/files. */
export class LocalFileStorage implements FileStorage {
  readonly driver = "local" as const;

  constructor(private root: string) {}

  private pathOf(key: string): string {
    assertValidKey(key);
    return path.join(this.root, ...key.split("/"));
  }

  async put(key: string, body: Buffer, _contentType: string): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    await writeFile(temp, body);
    await rename(temp, file);
  }

  async get(key: string): Promise<StoredFile | null> {
    try {
      return { body: await readFile(this.pathOf(key)), contentType: contentTypeOf(key) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  url(key: string): string {
    return `${FILES_ROUTE_PREFIX}${key}`;
  }

  async *list(): AsyncIterable<string> {
    const walk = async function* (dir: string, prefix: string): AsyncIterable<string> {
      let entries: import("node:fs").Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
        throw error;
      }
      for (const entry of entries) {
        const key = `${prefix}${entry.name}`;
        if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), `${key}/`);
        // Half-written uploads (`<key>.<random>.tmp`) are not files yet.
        else if (entry.isFile() && !entry.name.endsWith(".tmp") && isValidKey(key)) yield key;
      }
    };
    yield* walk(this.root, "");
  }

  async ping(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await stat(this.root);
  }
}
