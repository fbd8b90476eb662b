import { adminBackups } from "../backups.ts";
import { endpoint } from "../endpoint.ts";

/**
 * Backups are taken and restored with `hearth backup` and `hearth restore` on the server (or the
 * schedule): nothing over HTTP takes or downloads one. Administrators see their state here.
 */
export const backupEndpoints = {
  adminOverview: endpoint({
    method: "GET",
    path: "/api/admin/backups",
    summary: "The backup schedule, the last backup (time, size) and the backups kept on the server",
    tag: "Admin: backups",
    access: "admin",
    response: adminBackups,
  }),
};
