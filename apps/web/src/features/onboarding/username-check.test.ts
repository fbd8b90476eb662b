import { describe, expect, it } from "vitest";
import { usernameProblem } from "./username-check.ts";

describe("usernameProblem (accounts-billing-admin §5)", () => {
  it.each([
    ["", "Username can't be empty"],
    ["ab", "Username is too short"],
    ["abc", "Username is invalid"],
    ["a".repeat(21), "Username should be less then 20 characters"],
    ["bad name", "Username contain invalid characters"],
    ["good_name", null],
    ["Good_Name", null],
  ])("%j: %s", (value, expected) => {
    expect(usernameProblem(value)).toBe(expected);
  });
});
