import { tooManyTagsMessage } from "@hearth/contract/labels";
import { describe, expect, it } from "vitest";
import { emptyCharacterValues } from "./drafts.ts";
import { changedFields, cleanValues, errorsFromIssues, validateCharacter } from "./validation.ts";

const values = { ...emptyCharacterValues, name: "Mira", tags: ["fantasy"] };

describe("character form rules", () => {
  it("sends only the fields that changed", () => {
    expect(changedFields(values, { ...values })).toEqual({});
    expect(changedFields(values, { ...values, title: "Mapmaker", tags: ["fantasy", "mentor"] })).toEqual({
      title: "Mapmaker",
      tags: ["fantasy", "mentor"],
    });
    expect(changedFields(values, { ...values, is_nsfw: true })).toEqual({ is_nsfw: true });
    expect(changedFields(values, { ...values, personality: "Dry humour" })).toEqual({
      personality: "Dry humour",
    });
  });

  it("has a personality summary apart from the description, with the contract's limit", () => {
    expect(emptyCharacterValues.personality).toBe("");
    expect(validateCharacter({ ...values, personality: "x".repeat(20_001) }).personality).toMatch(
      /At most 20,000/,
    );
  });

  it("checks the contract's rules before sending", () => {
    expect(validateCharacter(values)).toEqual({});
    expect(validateCharacter({ ...values, name: "  " }).name).toBe("A name is required");
    expect(validateCharacter({ ...values, title: "x".repeat(201) }).title).toMatch(/At most 200/);
    expect(validateCharacter({ ...values, tags: Array.from({ length: 13 }, (_, i) => `t${i}`) }).tags).toBe(
      tooManyTagsMessage,
    );
    expect(tooManyTagsMessage).toBe("You can keep only 12 tags !");
  });

  it("maps server issues to fields and trims what the server trims", () => {
    expect(errorsFromIssues([{ path: "persona", message: "Too long" }])).toEqual({ persona: "Too long" });
    expect(cleanValues({ ...values, name: " Mira ", alternate_greetings: ["hi", " "] })).toMatchObject({
      name: "Mira",
      alternate_greetings: ["hi"],
    });
  });
});
