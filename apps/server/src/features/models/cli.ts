import { existsSync, statSync } from "node:fs";
import { CliError } from "../../cli/errors.ts";
import type { Config } from "../../config.ts";
import { BUNDLED_MODEL, CATALOG, type CatalogModel, findCatalogModel } from "./catalog.ts";
import { DownloadError, downloadModel } from "./download.ts";
import { formatBytes } from "./format.ts";
import { createProgressReporter } from "./progress.ts";
import {
  type ActiveModel,
  isValidModelId,
  listStoredModels,
  modelFile,
  modelIdFromUrl,
  normaliseModelId,
  readActiveModel,
  removeStoredModel,
  writeActiveModel,
} from "./store.ts";

/** `hearth models …`: pull, list, use and remove local GGUF chat models. */

type DataDir = Pick<Config, "dataDir">;

export interface PullOptions {
  /** Id to store the model under (default: the catalog id, or one derived from the URL's file name). */
  name?: string;
  /** Make it the active model once it is in place. */
  use?: boolean;
}

interface PullSource {
  id: string;
  url: string;
  label: string;
  sha256?: string;
}

export async function modelsPullCommand(config: DataDir, target: string, opts: PullOptions): Promise<void> {
  if (normaliseModelId(target) === BUNDLED_MODEL.id) {
    const bundled = bundledModelOrFail();
    console.log(`${BUNDLED_MODEL.id} ships with Hearth; nothing to download.`);
    if (opts.use) activate(config, bundled);
    return;
  }
  const source = resolvePullSource(target, opts.name);
  const dest = modelFile(config.dataDir, source.id);
  if (existsSync(dest)) {
    console.log(`${source.id} is already downloaded: ${dest}`);
  } else {
    await pull(source, dest);
  }
  if (opts.use) activate(config, { id: source.id, path: dest });
  else console.log(`To use it: hearth models use ${source.id}`);
}

async function pull(source: PullSource, dest: string): Promise<void> {
  console.error(`Downloading ${source.label}\n  from ${source.url}\n  to   ${dest}`);
  const progress = createProgressReporter(process.stderr);
  // Ctrl-C stops cleanly: the .part file stays, and the same command resumes it.
  const controller = new AbortController();
  const cancel = () => controller.abort();
  process.once("SIGINT", cancel);
  try {
    const result = await downloadModel({
      url: source.url,
      dest,
      expectedSha256: source.sha256,
      onProgress: (p) => progress.update(p),
      onNote: (message) => progress.note(message),
      signal: controller.signal,
    });
    progress.finish();
    const checked =
      result.checksumSource === "none" ? "size checked, no sha256 published" : "sha256 verified";
    console.log(`Saved ${source.id} (${formatBytes(result.bytes)}, ${checked}): ${result.path}`);
  } catch (error) {
    progress.finish();
    if (error instanceof DownloadError) throw new CliError(error.message);
    throw error;
  } finally {
    process.off("SIGINT", cancel);
  }
}

function resolvePullSource(target: string, name: string | undefined): PullSource {
  const id = name === undefined ? undefined : checkedId(name);
  if (/^https?:\/\//i.test(target)) {
    let derived: string;
    try {
      derived = modelIdFromUrl(target);
    } catch {
      throw new CliError(`Not a valid URL: ${target}`);
    }
    const finalId = id ?? checkedId(derived);
    return { id: finalId, url: target, label: finalId };
  }
  const entry = findCatalogModel(normaliseModelId(target));
  if (!entry) throw new CliError(unknownModelMessage(target));
  return { id: id ?? entry.id, url: entry.url, label: entry.displayName, sha256: entry.sha256 };
}

function checkedId(name: string): string {
  const id = normaliseModelId(name);
  if (id === BUNDLED_MODEL.id)
    throw new CliError(`"${id}" is the bundled model's name; choose another --name.`);
  if (!isValidModelId(id)) {
    throw new CliError(
      `"${name}" cannot be a model name: use up to 64 letters, digits, ".", "_" or "-", starting with a letter or digit.`,
    );
  }
  return id;
}

export function modelsUseCommand(config: DataDir, name: string): void {
  const id = normaliseModelId(name);
  if (id === BUNDLED_MODEL.id) {
    activate(config, bundledModelOrFail());
    return;
  }
  const file = isValidModelId(id) ? modelFile(config.dataDir, id) : null;
  if (file && existsSync(file)) {
    activate(config, { id, path: file });
    return;
  }
  if (findCatalogModel(id))
    throw new CliError(`${id} is not downloaded yet. Run: hearth models pull ${id} --use`);
  throw new CliError(`No downloaded model "${name}". See: hearth models list`);
}

export function modelsRemoveCommand(config: DataDir, name: string): void {
  const id = normaliseModelId(name);
  if (id === BUNDLED_MODEL.id)
    throw new CliError("The bundled model ships with Hearth and cannot be removed.");
  const result = isValidModelId(id)
    ? removeStoredModel(config.dataDir, id)
    : { removed: false, wasActive: false };
  if (!result.removed) throw new CliError(`No downloaded model "${name}". See: hearth models list`);
  console.log(`Removed ${id}.`);
  if (result.wasActive) console.log("It was the active model; no model is marked active now.");
}

export function modelsListCommand(config: DataDir): void {
  const active = readActiveModel(config.dataDir);
  const stored = listStoredModels(config.dataDir);
  const complete = new Set(stored.filter((m) => !m.partial).map((m) => m.id));
  const rows: string[][] = [];
  const row = (id: string, status: string, size: string, entry: CatalogModel | undefined, name: string) =>
    rows.push([
      active?.id === id ? "*" : " ",
      id,
      status,
      size,
      entry ? `${entry.contextTokens / 1024}K` : "-",
      entry?.licence ?? "-",
      name,
    ]);

  const bundledSize = existsSync(BUNDLED_MODEL.path) ? formatBytes(statSync(BUNDLED_MODEL.path).size) : "-";
  const bundledStatus = bundledSize === "-" ? "missing" : "bundled";
  row(BUNDLED_MODEL.id, bundledStatus, bundledSize, undefined, BUNDLED_MODEL.displayName);
  for (const model of stored) {
    if (model.partial && complete.has(model.id)) continue;
    const entry = findCatalogModel(model.id);
    const name = entry?.displayName ?? "(downloaded from a URL)";
    if (model.partial) row(model.id, "partial", `${formatBytes(model.bytes)} so far`, entry, name);
    else row(model.id, "downloaded", formatBytes(model.bytes), entry, name);
  }
  const present = new Set(stored.map((m) => m.id));
  for (const entry of CATALOG.filter((e) => !present.has(e.id))) {
    row(entry.id, "available", `~${formatBytes(entry.approxBytes)}`, entry, entry.displayName);
  }

  console.log(formatTable([["", "ID", "STATUS", "SIZE", "CONTEXT", "LICENCE", "MODEL"], ...rows]));
  console.log(
    `\n${active ? `* active: ${active.path}` : "No active model chosen."}\n` +
      "Download: hearth models pull <ID|URL>   Choose: hearth models use <ID>   Partial downloads resume on pull.",
  );
}

function activate(config: DataDir, model: ActiveModel): void {
  writeActiveModel(config.dataDir, model);
  console.log(`Active model: ${model.id} (${model.path}). Hearth loads it at the next start.`);
}

function bundledModelOrFail(): ActiveModel {
  if (!existsSync(BUNDLED_MODEL.path)) {
    throw new CliError(`The bundled model is missing from this installation (${BUNDLED_MODEL.path}).`);
  }
  return { id: BUNDLED_MODEL.id, path: BUNDLED_MODEL.path };
}

function unknownModelMessage(target: string): string {
  const width = Math.max(...CATALOG.map((m) => m.id.length));
  const lines = CATALOG.map(
    (m) => `  ${m.id.padEnd(width)}  ${m.displayName}, ~${formatBytes(m.approxBytes)}`,
  );
  return [
    `Unknown model "${target}". Models Hearth can download by name:`,
    ...lines,
    `(${BUNDLED_MODEL.id} ships with Hearth.) Or pass an http(s) URL to a .gguf file.`,
  ].join("\n");
}

function formatTable(rows: string[][]): string {
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? "").length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((cell, col) => cell.padEnd(widths[col] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
