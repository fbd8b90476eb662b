import { describe, expect, it } from "vitest";
import { describeError } from "./describe-error.ts";

describe("describeError (what failure logs may say)", () => {
  it("keeps the kind, code and first line, never a failed query's parameters", () => {
    const query = Object.assign(
      new Error('Failed query: update "messages" set "content" = $1\nparams: Dear diary, my secret is...'),
      { name: "DrizzleQueryError" },
    );
    expect(describeError(query)).toBe(
      'DrizzleQueryError: Failed query: update "messages" set "content" = $1',
    );
    expect(describeError(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toBe(
      "Error ECONNREFUSED: connect ECONNREFUSED",
    );
    expect(describeError("x".repeat(500))).toHaveLength(200);
  });
});
