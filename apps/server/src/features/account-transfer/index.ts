// Whole-account export and import (issue 19 item 4): the routes register from app.ts.
export { accountTransferRoutes } from "./routes.ts";
