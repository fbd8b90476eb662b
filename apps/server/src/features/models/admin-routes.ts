import { existsSync } from "node:fs";
import { type AdminModels, type ModelDownload, modelEndpoints } from "@hearth/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.ts";
import { HttpError, notFound } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { type Auth, assertPermission, requireViewer } from "../accounts/index.ts";
import { type InferenceService, loadRegistry } from "../inference/index.ts";
import { type DownloadJob, ModelDownloads } from "./admin-downloads.ts";
import { overview, settingsLock } from "./admin-overview.ts";
import { BUNDLED_MODEL, findCatalogModel } from "./catalog.ts";
import { formatBytes } from "./format.ts";
import { probeLocalServers } from "./local-servers.ts";
import {
  isValidModelId,
  modelFile,
  modelIdFromUrl,
  normaliseModelId,
  writeActiveModel,
  writeActiveServer,
} from "./store.ts";

/**
 * The operator's model management, for admins only: the active model, the models on disk, the
 * catalog, background downloads (one at a time, progress polled) and switching the model the
 * running server uses, without a restart.
 */

export interface AdminModelDeps {
  config: Config;
  auth: Auth;
  inference: InferenceService;
}

export async function adminModelRoutes(app: FastifyInstance, { config, auth, inference }: AdminModelDeps) {
  const downloads = new ModelDownloads({
    onDone: (job) => app.log.info({ model: job.id }, "model downloaded"),
    onUnexpectedError: (err) => app.log.error({ err }, "model download failed unexpectedly"),
  });
  // A shutdown stops a running download; its .part stays for the next attempt to resume.
  app.addHook("onClose", async () => downloads.close());

  // Every route here is for administrators: checked before the input is even read.
  app.addHook("preHandler", async (req) => {
    assertPermission(await requireViewer(auth, req), "admin");
  });
  const answer = (): AdminModels => overview(config, inference, downloads.current());

  route(app, modelEndpoints.adminOverview, async () => answer());

  route(app, modelEndpoints.startDownload, async ({ body }) => {
    if (downloads.isRunning()) throw busy(downloads.current());
    const job = body.url ? urlJob(config, body.url, body.name) : catalogJob(config, body.id ?? "");
    if (existsSync(job.dest)) throw new HttpError(409, "conflict", `${job.id} is already downloaded.`);
    return downloads.start(job);
  });

  route(app, modelEndpoints.currentDownload, async () => {
    const state = downloads.current();
    if (!state) throw notFound("No download has been started.");
    return state;
  });

  route(app, modelEndpoints.cancelDownload, async () => {
    const state = downloads.current();
    if (!state) throw notFound("No download has been started.");
    if (!(await downloads.cancel())) throw new HttpError(409, "conflict", "The download is not running.");
    return downloads.current() ?? state;
  });

  /** Model servers running on this machine, looked for now (they come and go). */
  route(app, modelEndpoints.localServers, async () => {
    return { servers: await probeLocalServers(config.llm.localServers) };
  });

  /**
   * One click: chats use a model of a server found on this machine. Only a server and model the
   * probe finds right now are accepted, so this cannot point Hearth at an arbitrary address.
   */
  route(app, modelEndpoints.useLocalServer, async ({ body: choice }) => {
    const lock = settingsLock(config);
    if (lock) throw new HttpError(409, "conflict", lock);
    const found = await probeLocalServers(
      config.llm.localServers.filter((c) => c.base_url === choice.base_url),
    );
    const server = found[0];
    if (!server) throw notFound("No model server answers at that address any more.");
    if (!server.models.includes(choice.model)) {
      throw badInput("model", `${server.name} does not serve a model named "${choice.model}".`);
    }
    writeActiveServer(config.dataDir, { name: server.name, base_url: server.base_url, model: choice.model });
    inference.reload(loadRegistry(config));
    inference.warmUp((err) => app.log.error({ err }, "the chosen model server could not be reached"));
    return answer();
  });

  route(app, modelEndpoints.setActive, async ({ body }) => {
    const wanted = body.id;
    const lock = settingsLock(config);
    if (lock) throw new HttpError(409, "conflict", lock);
    const id = normaliseModelId(wanted);
    let file: string;
    if (id === BUNDLED_MODEL.id) {
      if (!existsSync(BUNDLED_MODEL.path)) {
        throw new HttpError(409, "conflict", "The bundled model is missing from this installation.");
      }
      file = BUNDLED_MODEL.path;
    } else {
      const candidate = isValidModelId(id) ? modelFile(config.dataDir, id) : null;
      if (!candidate || !existsSync(candidate)) throw notFound(`No downloaded model "${wanted}".`);
      file = candidate;
    }
    // As `hearth models use` does, then the running server follows: new generations get the new
    // model; the old one is closed once nothing generates with it.
    writeActiveModel(config.dataDir, { id, path: file });
    inference.reload(loadRegistry(config));
    inference.warmUp((err) => app.log.error({ err }, "the new active model could not be loaded"));
    return answer();
  });
}

function catalogJob(config: Config, rawId: string): DownloadJob {
  const id = normaliseModelId(rawId);
  if (id === BUNDLED_MODEL.id) throw badInput("id", `${id} ships with Hearth: there is nothing to download.`);
  const entry = findCatalogModel(id);
  if (!entry) throw badInput("id", `There is no model "${rawId}" in the catalog.`);
  return {
    id: entry.id,
    name: entry.displayName,
    url: entry.url,
    dest: modelFile(config.dataDir, entry.id),
    expectedSha256: entry.sha256,
  };
}

function urlJob(config: Config, url: string, name: string | undefined): DownloadJob {
  const id = name ?? modelIdFromUrl(url);
  if (!isValidModelId(id)) {
    throw badInput("name", "Hearth can't make a model name from this URL. Give the model a name.");
  }
  if (id === BUNDLED_MODEL.id) {
    throw badInput(
      name ? "name" : "url",
      `"${id}" is the bundled model's name. Give the model another name.`,
    );
  }
  return { id, name: id, url, dest: modelFile(config.dataDir, id) };
}

function badInput(field: string, message: string): HttpError {
  return new HttpError(400, "invalidRequest", message, [{ path: field, message }]);
}

function busy(current: ModelDownload | null): HttpError {
  const done =
    current?.total_bytes && current.total_bytes > 0
      ? ` (${Math.floor((current.received_bytes / current.total_bytes) * 100)}% of ${formatBytes(current.total_bytes)})`
      : "";
  return new HttpError(
    409,
    "conflict",
    `${current?.name ?? "Another model"} is downloading${done}. Wait for it to finish or cancel it first.`,
  );
}
