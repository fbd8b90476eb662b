// Chat import and export (issue 19 items 2 and 3): the routes register from app.ts; the
// `hearth import-chat` command loads cli.ts lazily.
export { chatTransferRoutes } from "./routes.ts";
export { ChatTransferService, exportName, readChatFile } from "./service.ts";
