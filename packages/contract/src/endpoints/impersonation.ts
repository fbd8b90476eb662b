import { me } from "../accounts.ts";
import { endpoint, idParams } from "../endpoint.ts";

/**
 * Administrators view the site as a user (accounts-billing-admin §2.2, the impersonation
 * banner): read-only, for an hour at most, each start and stop written to the audit log.
 */
export const impersonationEndpoints = {
  start: endpoint({
    method: "POST",
    path: "/api/admin/users/{id}/impersonate",
    summary:
      "View the site as this user, read-only, for up to an hour (sets the session cookie; the administrator's own session is kept aside)",
    tag: "Admin: users",
    access: "admin",
    params: idParams,
    response: me,
  }),
  stop: endpoint({
    method: "POST",
    path: "/api/admin/impersonation/stop",
    summary: "Stop viewing as a user: ends that session and restores the administrator's own",
    tag: "Admin: users",
    access: "member",
    response: me,
  }),
};
