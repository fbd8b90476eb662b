/** What the rest of the server uses from the models feature. */

export { adminModelRoutes } from "./admin-routes.ts";
export {
  BUNDLED_MODEL,
  CATALOG,
  type CatalogModel,
  findCatalogModel,
  REAL_MODEL_COMMAND,
} from "./catalog.ts";
export {
  DownloadError,
  type DownloadErrorKind,
  type DownloadOptions,
  type DownloadProgress,
  type DownloadResult,
  downloadModel,
} from "./download.ts";
export {
  type FoundLocalServer,
  probeLocalServers,
} from "./local-servers.ts";
export {
  type ActiveModel,
  type ActiveServer,
  isValidModelId,
  listStoredModels,
  modelFile,
  readActiveModel,
  readActiveServer,
  type StoredModel,
} from "./store.ts";
