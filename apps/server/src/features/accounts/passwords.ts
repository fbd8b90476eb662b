import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@hearth/contract";
import type { FeedbackType, ZxcvbnFactory } from "@zxcvbn-ts/core";

/**
 * Password rules for every path that sets one (sign-up, change-password, reset-password): long
 * enough, and hard to guess as judged by zxcvbn, which also knows the account's own e-mail, name
 * and username. better-auth checks the length too; checking here first gives the person a
 * sentence instead of "Password too short".
 */

/**
 * zxcvbn's scores run 0 to 4; 3 means about 10^8 guesses or more. Below that a password falls to
 * an offline attack on a leaked hash within hours; 4 would refuse many passphrases people
 * remember, and sign-in throttling already covers online guessing.
 */
export const PASSWORD_MIN_SCORE = 3;

/** The start of every refusal for a guessable password. */
export const PASSWORD_EASY_TO_GUESS = "This password is easy to guess";
const ADVICE = "Add a few unrelated words.";
export const PASSWORD_TOO_COMMON = `${PASSWORD_EASY_TO_GUESS}: it is one of the most used passwords. ${ADVICE}`;

/** What is known of the account the password is for; each becomes one of zxcvbn's user inputs. */
export interface PasswordContext {
  email?: string | null;
  name?: string | null;
  username?: string | null;
  /** The site's name: a password made of it is guessed first too. */
  brand?: string | null;
}

/** Why zxcvbn warned, as the end of "This password is easy to guess: …". */
const REASONS: Record<string, string> = {
  straightRow: "it is a straight row of keys",
  keyPattern: "it is a keyboard pattern",
  simpleRepeat: "it repeats one character",
  extendedRepeat: "it repeats a short pattern",
  sequences: "it is a sequence like abc or 123",
  recentYears: "it leans on a recent year",
  dates: "it leans on a date",
  topTen: "it is one of the most used passwords",
  topHundred: "it is one of the most used passwords",
  common: "it is one of the most used passwords",
  similarToCommon: "it is a common password with small changes",
  wordByItself: "it is a single word",
  namesByThemselves: "it is a name by itself",
  commonNames: "it is made of common names",
  userInputs: "it contains your e-mail address, name or username",
};

/** zxcvbn's suggestions worth passing on; its others push symbols and capitals, which add little. */
const ADVICE_FOR: Record<string, string> = {
  repeated: "Avoid repeating words and characters, and add a few unrelated words.",
  sequences: "Avoid sequences, and add a few unrelated words.",
  recentYears: "Leave out the year, and add a few unrelated words.",
  dates: "Leave out dates, and add a few unrelated words.",
  associatedYears: "Leave out the year, and add a few unrelated words.",
};

let estimator: Promise<ZxcvbnFactory> | null = null;

/** zxcvbn with its common and English dictionaries (several MB), loaded once on first use. */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-en"),
    ]);
    // No translations: its feedback stays as keys, which REASONS and ADVICE_FOR turn into sentences.
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
    });
  })();
  estimator.catch(() => {
    estimator = null;
  });
  return estimator;
}

/** The account's words zxcvbn should treat as known to an attacker: the e-mail, its parts, names. */
export function passwordUserInputs(context: PasswordContext): string[] {
  const words = new Set<string>();
  const add = (value: string | null | undefined) => {
    const v = value?.trim().toLowerCase();
    if (!v) return;
    words.add(v);
    for (const part of v.split(/[^\p{L}\p{N}]+/u)) if (part.length >= 3) words.add(part);
  };
  add(context.email);
  add(context.email?.split("@")[0]);
  add(context.name);
  add(context.username);
  add(context.brand);
  return [...words];
}

/** The refusal for a password zxcvbn scored too low, from its warning and suggestions. */
function refusal(feedback: FeedbackType): string {
  const reason = (feedback.warning && REASONS[feedback.warning]) || "it is short for how predictable it is";
  const advice = feedback.suggestions.map((s) => ADVICE_FOR[s]).find(Boolean) ?? ADVICE;
  return `${PASSWORD_EASY_TO_GUESS}: ${reason}. ${advice}`;
}

/** The problem with a new password, as a sentence for the person, or null when it is fine. */
export async function passwordProblem(password: string, context: PasswordContext): Promise<string | null> {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Password should be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `Password should be at most ${PASSWORD_MAX_LENGTH} characters`;
  const result = (await loadEstimator()).check(password, passwordUserInputs(context));
  return result.score >= PASSWORD_MIN_SCORE ? null : refusal(result.feedback);
}
