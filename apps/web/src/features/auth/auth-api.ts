import { api } from "../../lib/api.ts";

/**
 * better-auth endpoints. They answer with their own shapes (user, session token), which the
 * client doesn't read: after each call the session is reloaded from GET /api/me.
 */
export const authApi = {
  signUpWithEmail: (input: { email: string; password: string; name: string; username: string }) =>
    api.post<unknown>("/api/auth/sign-up/email", input),
  signInWithEmail: (input: { email: string; password: string }) =>
    api.post<unknown>("/api/auth/sign-in/email", input),
  continueAsGuest: () => api.post<unknown>("/api/auth/sign-in/anonymous", {}),
  signOut: () => api.post<unknown>("/api/auth/sign-out", {}),
  /** Mails a reset link when the address has an account; answers the same either way. */
  requestPasswordReset: (input: { email: string; redirectTo: string }) =>
    api.post<unknown>("/api/auth/request-password-reset", input),
  /** Starts the hosted-login (OIDC) flow; the browser must then go to the returned url. */
  signInWithProvider: (providerId: string, callbackURL: string) =>
    api.post<{ url: string; redirect: boolean }>("/api/auth/sign-in/social", {
      provider: providerId,
      callbackURL,
    }),
};
