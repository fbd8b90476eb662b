/**
 * Client-side checks mirror what the server enforces, so mistakes show next to the field before
 * a round trip. The server stays the authority: its message is shown when it disagrees.
 * Name rules follow accounts-billing-admin §5; the password limits are the server's (the contract's).
 */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@hearth/contract";

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
  return null;
}
