import { adminUser, adminUserList, adminUserListQuery, adminUserUpdate, appConfig, me } from "../accounts.ts";
import { endpoint, idParams } from "../endpoint.ts";

/**
 * The signed-in account and the operator's user management. Sign-up, sign-in, guests and
 * sessions are better-auth's own routes under /api/auth (outside this contract).
 */
export const accountEndpoints = {
  config: endpoint({
    method: "GET",
    path: "/api/config",
    summary: "Brand, edition and the ways to sign in (and whether the first sign-up becomes the admin)",
    tag: "Accounts",
    access: "anyone",
    response: appConfig,
  }),
  me: endpoint({
    method: "GET",
    path: "/api/me",
    summary: "The signed-in account (or guest): name, role, subscription, permissions",
    tag: "Accounts",
    access: "member",
    response: me,
  }),
  listUsers: endpoint({
    method: "GET",
    path: "/api/admin/users",
    summary: "Accounts, searchable, a page at a time",
    tag: "Admin: users",
    access: "admin",
    query: adminUserListQuery,
    response: adminUserList,
  }),
  updateUser: endpoint({
    method: "PATCH",
    path: "/api/admin/users/{id}",
    summary: "Change an account's role, subscription, admin flag or restriction",
    tag: "Admin: users",
    access: "admin",
    params: idParams,
    body: adminUserUpdate,
    response: adminUser,
  }),
};
