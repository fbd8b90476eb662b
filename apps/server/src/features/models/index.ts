/** What the rest of the server uses from the models feature. */
export { BUNDLED_MODEL, CATALOG, type CatalogModel, findCatalogModel } from "./catalog.ts";
export {
  DownloadError,
  type DownloadErrorKind,
  type DownloadOptions,
  type DownloadProgress,
  type DownloadResult,
  downloadModel,
} from "./download.ts";
export { type ActiveModel, listStoredModels, modelFile, readActiveModel, type StoredModel } from "./store.ts";
