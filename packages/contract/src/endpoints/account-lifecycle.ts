import {
  emailUpdate,
  onboardingSave,
  onboardingState,
  onboardingSubmit,
  passwordResetLink,
  signInUnlock,
} from "../account-lifecycle.ts";
import { me } from "../accounts.ts";
import { endpoint, idParams } from "../endpoint.ts";

/**
 * Onboarding, deletion, the update-email page, reset and unlock links. Requesting a reset by e-mail and
 * setting the new password are better-auth's own routes (/api/auth/request-password-reset,
 * /api/auth/reset-password), outside this contract.
 */
export const accountLifecycleEndpoints = {
  onboarding: endpoint({
    method: "GET",
    path: "/api/users/me/onboarding",
    summary: "Your saved onboarding step and draft, and whether onboarding is still required",
    tag: "Accounts",
    access: "member",
    response: onboardingState,
  }),
  saveOnboarding: endpoint({
    method: "PUT",
    path: "/api/users/me/onboarding",
    summary: "Save the onboarding step and what was typed so far (resumes on another device)",
    tag: "Accounts",
    access: "member",
    body: onboardingSave,
    response: onboardingState,
  }),
  completeOnboarding: endpoint({
    method: "POST",
    path: "/api/users/me/onboarding/complete",
    summary: "Finish onboarding: set username and name, record the 18+ and terms consents",
    tag: "Accounts",
    access: "member",
    body: onboardingSubmit,
    response: me,
  }),
  deleteAccount: endpoint({
    method: "DELETE",
    path: "/api/users",
    summary:
      "Delete your account and everything it owns (the last administrator cannot: 409); the session ends",
    tag: "Accounts",
    access: "member",
    response: null,
  }),
  updateEmail: endpoint({
    method: "PUT",
    path: "/api/users/me/email",
    summary: "Set a real e-mail on an account whose address is empty or a private-relay one",
    tag: "Accounts",
    access: "member",
    body: emailUpdate,
    response: me,
  }),
  passwordResetLink: endpoint({
    method: "POST",
    path: "/api/admin/users/{id}/password-reset-link",
    summary: "Issue a one-time password reset link for an account (valid one hour)",
    tag: "Admin: users",
    access: "admin",
    params: idParams,
    response: passwordResetLink,
    status: 201,
  }),
  unlockSignIn: endpoint({
    method: "POST",
    path: "/api/account/unlock-sign-in",
    summary:
      "Follow a mailed unlock link: ends the sign-in lock that wrong passwords set on the account (the token is the check)",
    tag: "Accounts",
    access: "anyone",
    body: signInUnlock,
    response: null,
  }),
};
