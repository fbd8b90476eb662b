import { readFileSync } from "node:fs";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@hearth/contract";

/**
 * Password rules for every path that sets one (sign-up, change-password, reset-password):
 * long enough, and not one of the passwords attackers try first. better-auth checks the length
 * too; checking here first gives the person a sentence instead of "Password too short".
 */

export const PASSWORD_TOO_COMMON =
  "This password is too common and easy to guess. Choose another one: a few unrelated words work well.";

let common: Set<string> | null = null;

/** The common-password list (common-passwords.txt), lowercased, loaded once on first use. */
function commonPasswords(): Set<string> {
  if (!common) {
    const text = readFileSync(new URL("./common-passwords.txt", import.meta.url), "utf8");
    common = new Set(
      text
        .split("\n")
        .map((line) => line.trim())
        // Shorter ones are refused by length already; no need to hold them.
        .filter((line) => line.length >= PASSWORD_MIN_LENGTH && !line.startsWith("#")),
    );
  }
  return common;
}

/** The problem with a new password, as a sentence for the person, or null when it is fine. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Password should be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `Password should be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (commonPasswords().has(password.trim().toLowerCase())) return PASSWORD_TOO_COMMON;
  return null;
}
