import { describe, expect, it } from "vitest";
import { PROBE_ACCOUNT, STRONG_PASSWORDS, WEAK_PASSWORDS } from "./password-test-support.ts";
import {
  PASSWORD_EASY_TO_GUESS,
  PASSWORD_TOO_COMMON,
  type PasswordContext,
  passwordProblem,
  passwordUserInputs,
} from "./passwords.ts";

const context: PasswordContext = { ...PROBE_ACCOUNT, brand: "Hearth" };

describe("passwordProblem", () => {
  it("keeps the length limits", async () => {
    expect(await passwordProblem("123456789", context)).toBe("Password should be at least 10 characters");
    expect(await passwordProblem("x".repeat(129), context)).toBe("Password should be at most 128 characters");
  });

  it.each(WEAK_PASSWORDS)("refuses %j with a sentence that says why", async (password) => {
    const problem = await passwordProblem(password, context);
    expect(problem).toMatch(new RegExp(`^${PASSWORD_EASY_TO_GUESS}: it [a-z][^.]+\\. [A-Z].+\\.$`));
  });

  it("says what is wrong", async () => {
    expect(await passwordProblem("aaaaaaaaaa", context)).toBe(
      `${PASSWORD_EASY_TO_GUESS}: it repeats one character. Avoid repeating words and characters, and add a few unrelated words.`,
    );
    expect(await passwordProblem("password123", context)).toBe(PASSWORD_TOO_COMMON);
    expect(await passwordProblem("PASSWORD123", context)).toBe(PASSWORD_TOO_COMMON);
    expect(await passwordProblem(PROBE_ACCOUNT.email, context)).toMatch(
      /: it contains your e-mail address, name or username\./,
    );
  });

  it("refuses the account's own e-mail and names, which pass for anyone else", async () => {
    for (const own of [PROBE_ACCOUNT.email, "marta.kowalski", "kowalskimartak"]) {
      expect(await passwordProblem(own, {}), own).toBeNull();
      expect(await passwordProblem(own, context), own).toMatch(
        /contains your e-mail address, name or username/,
      );
    }
  });

  it.each(STRONG_PASSWORDS)("accepts %j", async (password) => {
    expect(await passwordProblem(password, context)).toBeNull();
  });
});

describe("passwordUserInputs", () => {
  it("gives zxcvbn the e-mail, its local part and their words, the names and the brand", () => {
    expect(passwordUserInputs({ ...PROBE_ACCOUNT, brand: "Hearth" })).toEqual([
      "marta.kowalski@example.com",
      "marta",
      "kowalski",
      "example",
      "com",
      "marta.kowalski",
      "marta kowalski",
      "martak",
      "hearth",
    ]);
  });
});
