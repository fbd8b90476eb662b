import { describe, expect, it } from "vitest";
import { chatLayoutOf } from "./layout.ts";

describe("chat layout (chat-and-characters §2)", () => {
  it("follows the operator's flag: on, the newer layout; off, the older one", () => {
    expect(chatLayoutOf(true, null)).toBe("v2");
    expect(chatLayoutOf(false, null)).toBe("classic");
  });
  it("keeps the older layout for the local-storage mode, whatever the flag", () => {
    expect(chatLayoutOf(true, "classic")).toBe("classic");
    expect(chatLayoutOf(false, "classic")).toBe("classic");
    expect(chatLayoutOf(true, "v2")).toBe("v2");
  });
});
