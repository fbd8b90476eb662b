import {
  activeModelChange,
  adminModels,
  localServerChoice,
  localServerList,
  modelDownload,
  modelDownloadRequest,
} from "../admin-models.ts";
import { endpoint } from "../endpoint.ts";
import { modelList, modelListQuery } from "../models.ts";

/** The models chats may use, and the operator's model management (Admin → Models). */
export const modelEndpoints = {
  list: endpoint({
    method: "GET",
    path: "/api/models",
    summary: "The models the viewer may choose, each with the window it really reads",
    tag: "Models",
    access: "anyone",
    query: modelListQuery,
    response: modelList,
  }),
  adminOverview: endpoint({
    method: "GET",
    path: "/api/admin/models",
    summary: "The active model, models on disk, the catalog, the last download",
    tag: "Admin: models",
    access: "admin",
    response: adminModels,
  }),
  startDownload: endpoint({
    method: "POST",
    path: "/api/admin/models/downloads",
    summary: "Start downloading a catalog model or a GGUF from a URL (one at a time)",
    tag: "Admin: models",
    access: "admin",
    body: modelDownloadRequest,
    response: modelDownload,
    status: 202,
  }),
  currentDownload: endpoint({
    method: "GET",
    path: "/api/admin/models/downloads/current",
    summary: "The running (or last) download's progress",
    tag: "Admin: models",
    access: "admin",
    response: modelDownload,
  }),
  cancelDownload: endpoint({
    method: "DELETE",
    path: "/api/admin/models/downloads/current",
    summary: "Cancel the running download, keeping what arrived for a resume",
    tag: "Admin: models",
    access: "admin",
    response: modelDownload,
  }),
  setActive: endpoint({
    method: "PUT",
    path: "/api/admin/models/active",
    summary: "Switch chats to a model on disk, without a restart",
    tag: "Admin: models",
    access: "admin",
    body: activeModelChange,
    response: adminModels,
  }),
  localServers: endpoint({
    method: "GET",
    path: "/api/admin/models/local-servers",
    summary: "Model servers running on this machine (Ollama, LM Studio, llama.cpp, vLLM)",
    tag: "Admin: models",
    access: "admin",
    response: localServerList,
  }),
  useLocalServer: endpoint({
    method: "PUT",
    path: "/api/admin/models/local-server",
    summary: "Switch chats to a model of a server found on this machine",
    tag: "Admin: models",
    access: "admin",
    body: localServerChoice,
    response: adminModels,
  }),
};
