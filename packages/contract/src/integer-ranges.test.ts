import { describe, expect, it } from "vitest";
import { z } from "zod";
import { accountManifest, exportedPersona, exportedSettings } from "./account-transfer.ts";
import { hearthChatFile } from "./chat-transfer.ts";
import { allEndpoints } from "./endpoints/index.ts";
import {
  INT32_MAX,
  INT32_MIN,
  int32,
  nonNegativeInt32,
  queryInt32,
  SAFE_INT_FORMAT,
  safeInt,
} from "./integers.ts";

/**
 * Every number a caller can send carries a finite range, so no value reaches SQL that its column
 * cannot hold: an integer within int4 (declared with int32() and its kin), or within
 * Number.MAX_SAFE_INTEGER when declared with safeInt(); a fraction within stated bounds.
 */

type Json = Record<string, unknown>;

const typesOf = (node: Json): unknown[] => (Array.isArray(node.type) ? node.type : [node.type]);

/** Every number in a JSON Schema that breaks the rule, as "where: why". */
function rangeProblems(node: unknown, where: string, out: string[] = []): string[] {
  if (!node || typeof node !== "object") return out;
  const json = node as Json;
  const types = typesOf(json);
  const fixed = json.const !== undefined || Array.isArray(json.enum);
  if (!fixed && (types.includes("integer") || types.includes("number"))) {
    const min = json.minimum ?? json.exclusiveMinimum;
    const max = json.maximum ?? json.exclusiveMaximum;
    if (typeof min !== "number" || typeof max !== "number" || !Number.isFinite(min) || !Number.isFinite(max))
      out.push(`${where}: no finite minimum and maximum`);
    else if (types.includes("integer")) {
      if (min < Number.MIN_SAFE_INTEGER || max > Number.MAX_SAFE_INTEGER)
        out.push(`${where}: ${min}..${max} is past Number.MAX_SAFE_INTEGER`);
      else if ((min < INT32_MIN || max > INT32_MAX) && json.format !== SAFE_INT_FORMAT)
        out.push(`${where}: ${min}..${max} is past int4 but not declared with safeInt()`);
    }
  }
  for (const [key, value] of Object.entries(json)) {
    if (
      (key === "properties" || key === "$defs" || key === "patternProperties") &&
      value &&
      typeof value === "object"
    )
      for (const [name, child] of Object.entries(value as Json))
        rangeProblems(child, `${where}.${name}`, out);
    else if (key === "items" || key === "additionalProperties" || key === "not")
      rangeProblems(value, `${where}[]`, out);
    else if (["anyOf", "oneOf", "allOf", "prefixItems"].includes(key) && Array.isArray(value))
      for (const child of value) rangeProblems(child, where, out);
  }
  return out;
}

const problemsOf = (schema: z.ZodType, where: string) =>
  rangeProblems(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }), where);

describe("integer and number ranges of the contract's input", () => {
  it("every endpoint's params, query and body hold every number to a range its column can hold", () => {
    const problems: string[] = [];
    for (const def of allEndpoints) {
      for (const part of ["params", "query", "body"] as const) {
        const schema = def[part];
        if (schema && schema !== "multipart")
          problems.push(...problemsOf(schema, `${def.method} ${def.path} ${part}`));
      }
    }
    expect(problems).toEqual([]);
  });

  it("so do the files an import reads (chat files, account archives)", () => {
    const files = { hearthChatFile, accountManifest, exportedPersona, exportedSettings };
    const problems = Object.entries(files).flatMap(([name, schema]) => problemsOf(schema, name));
    expect(problems).toEqual([]);
  });

  it("finds a number declared without the helpers", () => {
    const bare = z.object({
      index: z.number().int().min(0),
      count: z.coerce.number().int(),
      share: z.number(),
      nested: z.array(z.object({ at: z.number().int().max(10) })),
    });
    expect(problemsOf(bare, "bare")).toEqual([
      "bare.index: 0..9007199254740991 is past int4 but not declared with safeInt()",
      "bare.count: -9007199254740991..9007199254740991 is past int4 but not declared with safeInt()",
      "bare.share: no finite minimum and maximum",
      "bare.nested[].at: -9007199254740991..10 is past int4 but not declared with safeInt()",
    ]);
    const declared = z.object({
      index: nonNegativeInt32(),
      seq: safeInt(0),
      limit: queryInt32(1, 100),
      level: z.literal(3),
    });
    expect(problemsOf(declared, "declared")).toEqual([]);
  });

  it("int32() refuses past int4 and safeInt() past Number.MAX_SAFE_INTEGER", () => {
    expect(int32().safeParse(INT32_MAX).success).toBe(true);
    expect(int32().safeParse(2 ** 31).success).toBe(false);
    expect(int32().safeParse(-(2 ** 31) - 1).success).toBe(false);
    expect(nonNegativeInt32().safeParse(-1).success).toBe(false);
    expect(queryInt32(1, 100).safeParse("9223372036854775808").success).toBe(false);
    expect(safeInt().safeParse(2 ** 53).success).toBe(false);
    expect(safeInt().safeParse(2 ** 53 - 1).success).toBe(true);
    expect(() => int32(0, 2 ** 31)).toThrow(/within/);
  });
});
