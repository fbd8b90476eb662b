// The health check: its routes, and the model state other features report into it.
export { healthRoutes, type ModelState } from "./routes.ts";
