import { characterFields, MAX_TAGS } from "@hearth/contract";
import { characterBadge, characterLimits, moderationRank, tagPattern } from "@hearth/contract/labels";
import { describe, expect, it } from "vitest";
import { z } from "zod";

/** The longest string a field of the contract's schema accepts. */
function maxLength(schema: z.ZodType): number | null {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  return inner instanceof z.ZodString ? inner.maxLength : null;
}

describe("character limits in @hearth/contract/labels", () => {
  it("match the zod schema the server validates with", () => {
    const shape = characterFields.shape;
    for (const field of [
      "name",
      "title",
      "greeting",
      "persona",
      "scenario",
      "dialogue",
      "system_prompt",
      "post_history_instructions",
      "creator_notes",
    ] as const) {
      expect(maxLength(shape[field]), field).toBe(characterLimits[field]);
    }
    expect(characterLimits.tags).toBe(MAX_TAGS);
    expect(maxLength(shape.language)).toBe(characterLimits.language_max);
    expect(shape.tags.safeParse(Array.from({ length: 13 }, (_, i) => `t${i}`)).success).toBe(false);
    expect(shape.tags.safeParse(["x".repeat(characterLimits.tag)]).success).toBe(true);
    expect(shape.tags.safeParse(["x".repeat(characterLimits.tag + 1)]).success).toBe(false);
    expect(
      shape.alternate_greetings.safeParse(Array(characterLimits.alternate_greetings).fill("")).success,
    ).toBe(true);
    expect(
      shape.alternate_greetings.safeParse(Array(characterLimits.alternate_greetings + 1).fill("")).success,
    ).toBe(false);
  });

  it("accepts the same tags as the schema", () => {
    for (const tag of ["fantasy", "slice of life", "r&d", "c++", "sci-fi", "don't", "日本"]) {
      expect(tagPattern.test(tag), tag).toBe(true);
      expect(characterFields.shape.tags.safeParse([tag]).success, tag).toBe(true);
    }
    for (const tag of ["<b>", "a/b", "x!"]) {
      expect(tagPattern.test(tag), tag).toBe(false);
      expect(characterFields.shape.tags.safeParse([tag]).success, tag).toBe(false);
    }
  });
});

describe("card badges (chat-and-characters §4)", () => {
  it("maps review status first, then visibility", () => {
    expect(characterBadge("pending", "public")).toBe("REVIEW");
    expect(characterBadge("rereview_required", "private")).toBe("REVIEW");
    expect(characterBadge("fix_required", "public")).toBe("ACTION");
    expect(characterBadge("approved", "public")).toBe("PUBLIC");
    expect(characterBadge("approved", "private")).toBe("PRIVATE");
    expect(characterBadge("approved", "permanently_private")).toBe("PRIVATE");
    expect(characterBadge("approved", "hidden")).toBe("UNLISTED");
  });

  it("orders fix_required first, then review, then the rest", () => {
    const order = (["approved", "pending", "fix_required", "rereview_required"] as const)
      .slice()
      .sort((a, b) => moderationRank(a) - moderationRank(b));
    expect(order).toEqual(["fix_required", "pending", "rereview_required", "approved"]);
  });
});
