import { NAME_INVISIBLE } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { checkName, checkSignUpUsername } from "./validation.ts";

describe("checkSignUpUsername (accounts-billing-admin §5, original sign-up)", () => {
  it.each([
    ["", "Username can't be empty"],
    ["   ", "Username can't be empty"],
    ["ab", "Username is too short, it should be at least 4 characters long."],
    ["abc", "Username is too short, it should be at least 4 characters long."],
    ["a".repeat(21), "Username should be less then 20 characters"],
    ["bad name", "Username contain invalid characters"],
    ["dot.name", "Username contain invalid characters"],
    ["good_name-1", null],
    ["Ada_Lovelace", null],
  ])("%j: %s", (value, expected) => {
    expect(checkSignUpUsername(value)).toBe(expected);
  });
});

describe("checkName", () => {
  it("refuses a name with nothing visible and keeps the rest", () => {
    expect(checkName("\u200b\u200b\u200b")).toBe(NAME_INVISIBLE);
    expect(checkName("\u0301\u0301\u0301")).toBe(NAME_INVISIBLE);
    expect(checkName("Zoë")).toBeNull();
  });
});
