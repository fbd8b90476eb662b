// What other features use of inference: the service that holds one backend per model, the
// registry's entries and the choice of model for a chat. Routes register from app.ts.
export { openAiRoutes } from "./openai-routes.ts";
export {
  BUNDLED_MODEL_PATH,
  isDemoModel,
  loadRegistry,
  type RegistryEntry,
  resolveModelChoice,
} from "./registry.ts";
export { modelRoutes } from "./routes.ts";
export { InferenceService } from "./service.ts";
