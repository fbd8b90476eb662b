import { EMAIL_MAX, emptyDetails, NAME_MAX, type PersonalDetails, POSTAL_CODE_MAX } from "./rules.ts";

/**
 * The checkout's personal data in session storage (accounts-billing-admin §3, §4): kept while the
 * tab lives, restored on the first load of /checkout. Keyed by account, so another member signing
 * in on the same tab does not see it. Card data is never stored (the page never has it).
 */

type KeyValueStore = Pick<Storage, "getItem" | "setItem">;

const keyFor = (userId: string) => `hearth.checkout.${userId}`;

const limits: Record<keyof PersonalDetails, number> = {
  first_name: NAME_MAX,
  last_name: NAME_MAX,
  email: EMAIL_MAX,
  country: 2,
  state: 64,
  postal_code: POSTAL_CODE_MAX,
};

/**
 * The stored details, or null when none are stored or they can't be read. Whatever is stored is
 * only a convenience: unknown fields are dropped and each value is cut to its field's limit.
 */
export function restoreDetails(storage: KeyValueStore | null, userId: string): PersonalDetails | null {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(keyFor(userId)) ?? null;
  } catch {
    return null; // storage blocked (privacy settings)
  }
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  const stored = parsed as Record<string, unknown>;
  const details = { ...emptyDetails };
  let any = false;
  for (const field of Object.keys(limits) as (keyof PersonalDetails)[]) {
    const value = stored[field];
    if (typeof value !== "string") continue;
    details[field] = value.slice(0, limits[field]);
    any ||= value !== "";
  }
  return any ? details : null;
}

export function saveDetails(storage: KeyValueStore | null, userId: string, details: PersonalDetails): void {
  try {
    storage?.setItem(keyFor(userId), JSON.stringify(details));
  } catch {
    // Full or blocked: the form still works, it just won't be restored.
  }
}

/** The browser's session storage, or null where reading it throws (sandboxed frames). */
export function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The form's first values: what this tab stored, else a blank form with the account's e-mail and
 * the country guessed from the browser.
 */
export function initialDetails(
  restored: PersonalDetails | null,
  account: { email: string | null },
  guessedCountry: string,
): PersonalDetails {
  if (restored) return restored;
  return { ...emptyDetails, email: account.email ?? "", country: guessedCountry };
}
