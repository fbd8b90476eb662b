import { z } from "zod";
import { displayName, emailAddress, username } from "./accounts.ts";

/**
 * An account's life beside its profile (accounts-billing-admin §2.2, §4, §5): onboarding for
 * members without a username, account deletion, the private-relay e-mail and password resets.
 */

/** Onboarding's steps in order (§4); `done` is shown once and then the account has a username. */
export const ONBOARDING_STEPS = ["welcome", "guidelines", "submit", "done"] as const;
export const onboardingStep = z.enum(ONBOARDING_STEPS);
export type OnboardingStep = z.infer<typeof onboardingStep>;

export const AGE_REQUIRED_MESSAGE = "You must confirm that you are 18 years or older.";
export const TERMS_REQUIRED_MESSAGE = "You must agree with the terms and conditions.";
export const GUIDELINES_REQUIRED_MESSAGE = "Please accept the community guidelines to start chatting.";
/** Original sign-up asks for one character more than the profile (§5). */
export const SIGN_UP_USERNAME_MIN = 4;
export const SIGN_UP_USERNAME_SHORT = "Username is too short, it should be at least 4 characters long.";
/** Shown under the field below four characters, before any availability check (§5). */
export const USERNAME_INVALID_UNDER_4 = "Username is invalid";
export const ACCOUNT_INVALID_MESSAGE = "This account is invalid, has been deleted or has been suspended.";
/** The account deletion dialog's countdown (§9): 6 s in 1 s steps. */
export const DELETE_COUNTDOWN_SECONDS = 6;

/** The saved state, so onboarding resumes on another device; what was typed is a draft, unchecked. */
export const onboardingState = z.object({
  step: onboardingStep,
  username: z.string(),
  name: z.string(),
  email: z.string(),
  guidelines: z.boolean(),
  /** True while the account has no username: the web sends it to /welcome. */
  required: z.boolean(),
});
export type OnboardingState = z.infer<typeof onboardingState>;

/** PUT /api/users/me/onboarding: the step reached and the fields typed so far. */
export const onboardingSave = z
  .object({
    step: onboardingStep,
    username: z.string().max(100).optional(),
    name: z.string().max(100).optional(),
    email: z.string().max(320).optional(),
    guidelines: z.boolean().optional(),
  })
  .strict();
export type OnboardingSave = z.infer<typeof onboardingSave>;

/** POST /api/users/me/onboarding/complete: the checked fields and the three consents. */
export const onboardingSubmit = z
  .object({
    username,
    name: displayName,
    adult: z.literal(true, { error: AGE_REQUIRED_MESSAGE }),
    terms: z.literal(true, { error: TERMS_REQUIRED_MESSAGE }),
    guidelines: z.literal(true, { error: GUIDELINES_REQUIRED_MESSAGE }),
  })
  .strict();
export type OnboardingSubmit = z.infer<typeof onboardingSubmit>;

/** Sign-in addresses a login provider hides behind (§2.2): /update-email asks for a real one. */
const PRIVATE_RELAY_DOMAINS = ["privaterelay.appleid.com"];

/** True when the account has no usable e-mail: empty, or a private-relay address. */
export function needsEmail(email: string | null): boolean {
  if (!email) return true;
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  return PRIVATE_RELAY_DOMAINS.some((d) => domain === d || domain.endsWith(`.${d}`));
}

/** PUT /api/users/me/email (the update-email page): §5's two messages. */
export const emailUpdate = z.object({ email: emailAddress }).strict();
export type EmailUpdate = z.infer<typeof emailUpdate>;

/** A one-time password reset link an administrator hands to the member. */
export const passwordResetLink = z.object({ url: z.string(), expires_at: z.string() });
export type PasswordResetLink = z.infer<typeof passwordResetLink>;

/** POST /api/account/unlock-sign-in: the one-time token of a mailed unlock link. */
export const signInUnlock = z.object({ token: z.string().min(1).max(200) }).strict();
export type SignInUnlock = z.infer<typeof signInUnlock>;
