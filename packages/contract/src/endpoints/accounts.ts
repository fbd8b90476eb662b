import {
  adminUser,
  adminUserList,
  adminUserListQuery,
  adminUserUpdate,
  appConfig,
  me,
  profileUpdate,
  usernameCheck,
  usernameCheckQuery,
} from "../accounts.ts";
import { endpoint, idParams } from "../endpoint.ts";

/**
 * The signed-in account and the operator's user management. Sign-up, sign-in, guests and
 * sessions are better-auth's own routes under /api/auth (outside this contract); profile changes
 * go only through `updateProfile` (better-auth's update-user and change-email are closed).
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
  updateProfile: endpoint({
    method: "PATCH",
    path: "/api/users/me",
    summary: "Change your username, name, avatar address or e-mail (only the fields sent)",
    tag: "Accounts",
    access: "member",
    body: profileUpdate,
    response: me,
  }),
  checkUsername: endpoint({
    method: "GET",
    path: "/api/users/check-username",
    summary: "Whether a username is valid and free (usernames are compared lowercased)",
    tag: "Accounts",
    access: "anyone",
    query: usernameCheckQuery,
    response: usernameCheck,
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
