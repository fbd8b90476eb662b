import type { OnboardingSave, OnboardingState, OnboardingSubmit } from "@hearth/contract";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type UserRow, users } from "./schema.ts";

/**
 * Onboarding (accounts-billing-admin §2.2, §4): an account without a username is sent through it.
 * The step and the draft live on the users row, so a second device picks up where the first left.
 */

type Saved = NonNullable<UserRow["onboarding"]>;

export function toOnboardingState(row: Pick<UserRow, "onboarding" | "username" | "isAnonymous">) {
  const saved: Partial<Saved> = row.onboarding ?? {};
  const required = !row.isAnonymous && !row.username;
  return {
    // Finished accounts report `done`; a fresh one starts at the welcome step.
    step: required ? (saved.step ?? "welcome") : "done",
    username: saved.username ?? "",
    name: saved.name ?? "",
    email: saved.email ?? "",
    guidelines: saved.guidelines ?? false,
    required,
  } satisfies OnboardingState;
}

export async function userRow(db: Db, userId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** Stores the draft as typed (checked only on submit); fields not sent keep their saved value. */
export async function saveOnboarding(db: Db, row: UserRow, change: OnboardingSave): Promise<UserRow | null> {
  const merged: Saved = { ...(row.onboarding ?? {}), step: change.step };
  if (change.username !== undefined) merged.username = change.username;
  if (change.name !== undefined) merged.name = change.name;
  if (change.email !== undefined) merged.email = change.email;
  if (change.guidelines !== undefined) merged.guidelines = change.guidelines;
  const [updated] = await db
    .update(users)
    .set({ onboarding: merged, updatedAt: new Date() })
    .where(eq(users.id, row.id))
    .returning();
  return updated ?? null;
}

/**
 * Sets username and name and records the consents, only while the account still has no
 * username (two devices submitting at once: the second finds it done). Null when it already had one.
 */
export async function completeOnboarding(db: Db, userId: string, submit: OnboardingSubmit) {
  const now = new Date();
  const [row] = await db
    .update(users)
    .set({
      username: submit.username,
      name: submit.name,
      termsAcceptedAt: now,
      onboardedAt: now,
      onboarding: null,
      updatedAt: now,
    })
    .where(and(eq(users.id, userId), isNull(users.username)))
    .returning();
  return row ?? null;
}
