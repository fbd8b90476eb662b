// What other features use of accounts: the viewer behind a request and its permissions, the one
// permission check, and account lookups for work outside a request. better-auth stays inside
// this feature (auth.ts); the composition root registers the routes from here (decision 010).
export { signUpGate } from "./allowance.ts";
export { type Auth, createAuth } from "./auth.ts";
export { authRoutes } from "./auth-routes.ts";
export { storedDefaultModel } from "./default-model-routes.ts";
export type { AccountDeletionHook } from "./deletion.ts";
export { type AuditWriter, refuseWritesWhileImpersonating } from "./impersonation.ts";
export { impersonationRoutes } from "./impersonation-routes.ts";
export { accountLifecycleRoutes } from "./lifecycle-routes.ts";
export { decryptLlmKey, type MemberLlm } from "./llm-key.ts";
export {
  displayNameOf,
  ensureSystemAccount,
  findCreatorByUsername,
  findViewer,
  findViewerByEmailOrUsername,
  firstAdministrator,
  lockAccount,
  setEntitlement,
  usernameExists,
} from "./lookups.ts";
export { memberLlm } from "./member-llm.ts";
export {
  createExternalUser,
  type PartnerClaims,
  partnerAccount,
  signPartnerToken,
  verifyPartnerToken,
} from "./partner.ts";
export { contextTokens, effectiveRole } from "./permissions.ts";
export {
  assertNotRestricted,
  assertPermission,
  isAdministrator,
  isRestricted,
  refuseRestrictedChanges,
} from "./policy.ts";
export { refuseRestrictedAccounts } from "./restriction-guard.ts";
export { accountRoutes } from "./routes.ts";
export { startSession } from "./session-cookie.ts";
export { sessionColumns, sessionOfToken, viewerColumns } from "./session-lookup.ts";
export {
  getViewer,
  readsOwnSession,
  requireViewer,
  toMe,
  type Viewer,
  verifiedSessionToken,
  viewerFromRead,
  viewerFromUser,
} from "./viewer.ts";
