import type { ApiError, CharacterUpdate } from "@hearth/contract";
import { characterLimits, tooManyTagsMessage } from "@hearth/contract/labels";
import { smoothUnlessReduced } from "../../lib/motion.ts";
import { bookErrors } from "../lorebooks/book-values.ts";
import type { CharacterFormValues } from "./drafts.ts";

export type FieldErrors = Partial<Record<keyof CharacterFormValues, string>>;

const textFields = [
  "name",
  "title",
  "greeting",
  "persona",
  "personality",
  "scenario",
  "dialogue",
  "system_prompt",
  "post_history_instructions",
  "creator_notes",
] as const satisfies ReadonlyArray<keyof CharacterFormValues & keyof typeof characterLimits>;

const tooLong = (max: number) => `At most ${max.toLocaleString()} characters`;

/** The contract's rules, checked before sending so mistakes show at once. */
export function validateCharacter(values: CharacterFormValues): FieldErrors {
  const errors: FieldErrors = {};
  if (!values.name.trim()) errors.name = "A name is required";
  for (const field of textFields) {
    if (values[field].length > characterLimits[field]) errors[field] = tooLong(characterLimits[field]);
  }
  if (values.tags.length > characterLimits.tags) errors.tags = tooManyTagsMessage;
  const language = values.language.trim();
  if (language.length < characterLimits.language_min || language.length > characterLimits.language_max) {
    errors.language = "Choose a language";
  }
  if (values.alternate_greetings.length > characterLimits.alternate_greetings) {
    errors.alternate_greetings = `At most ${characterLimits.alternate_greetings} alternate greetings`;
  } else if (values.alternate_greetings.some((g) => g.length > characterLimits.alternate_greeting)) {
    errors.alternate_greetings = tooLong(characterLimits.alternate_greeting);
  }
  if (values.character_book && Object.keys(bookErrors(values.character_book, { named: false })).length) {
    errors.character_book = "Some lorebook entries need a fix";
  }
  return errors;
}

/** The server's field issues ({ path: "persona", message }) as form errors. */
export function errorsFromIssues(issues: ApiError["issues"]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues ?? []) {
    const field = issue.path.split(".")[0] as keyof CharacterFormValues;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Only the fields that differ (chat-and-characters §5: "Edit updates send only the changed fields"). */
export function changedFields(original: CharacterFormValues, current: CharacterFormValues): CharacterUpdate {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(current) as Array<keyof CharacterFormValues>) {
    if (!same(original[key], current[key])) changes[key] = current[key];
  }
  return changes as CharacterUpdate;
}

/** Trims what the server would trim anyway and drops empty alternate greetings. */
export function cleanValues(values: CharacterFormValues): CharacterFormValues {
  return {
    ...values,
    name: values.name.trim(),
    language: values.language.trim(),
    alternate_greetings: values.alternate_greetings.filter((greeting) => greeting.trim() !== ""),
  };
}

/** The editor reads this once to explain an avatar that failed after the bot was created. */
export const avatarErrorKey = (id: string) => `hearth.avatarError.${id}`;

/** Focuses the first field with an error, so keyboard and screen-reader users land on it. */
export function focusFirstError(errors: FieldErrors) {
  const first = Object.keys(errors)[0];
  if (!first) return;
  const candidates =
    first === "alternate_greetings"
      ? ["character-alternate-greeting-0"]
      : [`character-${first}`, `character-${first.replace(/_/g, "-")}`];
  const element = candidates.map((id) => document.getElementById(id)).find(Boolean);
  if (!element) return;
  // Advanced fields live in a collapsed <details>: open it first.
  const details = element.closest("details");
  if (details && !details.open) details.open = true;
  element.focus();
  element.scrollIntoView({ block: "center", behavior: smoothUnlessReduced() });
}
