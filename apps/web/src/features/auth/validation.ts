/**
 * Client-side checks mirror what the server enforces, so mistakes show next to the field before
 * a round trip. The server stays the authority: its message is shown when it disagrees.
 * Name and username rules follow accounts-billing-admin §5; the password limits are the server's (the contract's).
 */
import {
  hasVisibleCharacter,
  NAME_INVISIBLE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SIGN_UP_USERNAME_MIN,
  SIGN_UP_USERNAME_SHORT,
  USERNAME_MAX,
  username as usernameRule,
} from "@hearth/contract";

export const passwordMinLength = PASSWORD_MIN_LENGTH;
export const passwordMaxLength = PASSWORD_MAX_LENGTH;
export const nameMinLength = 3;
export const nameMaxLength = 20;

export function checkEmail(email: string): string | null {
  if (!email.trim()) return "Email can not be empty";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) return "Please enter a valid email address";
  return null;
}

export function checkPassword(password: string): string | null {
  if (!password) return "Password can't be empty";
  if (password.length < passwordMinLength)
    return `Password should be at least ${passwordMinLength} characters`;
  if (password.length > passwordMaxLength)
    return `Password should be at most ${passwordMaxLength} characters`;
  return null;
}

export function checkName(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return "Name can't be empty";
  if (trimmed.length < nameMinLength) return "Name should be of atleast 3 characters";
  if (trimmed.length > nameMaxLength) return "Name should be less than 20 characters";
  if (!hasVisibleCharacter(trimmed)) return NAME_INVISIBLE;
  return null;
}

export const signUpUsernameMaxLength = USERNAME_MAX;

/**
 * The original sign-up's username (§5): required, at least 4 characters (one more than the
 * profile asks), letters, digits, underscore and hyphen; the contract's rule says the rest.
 */
export function checkSignUpUsername(value: string): string | null {
  const folded = value.trim().normalize("NFKC");
  if (folded && folded.length < SIGN_UP_USERNAME_MIN) return SIGN_UP_USERNAME_SHORT;
  const parsed = usernameRule.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? "Username contain invalid characters");
}
