import { describe, expect, it } from "vitest";
import { mentionsUser, resolveMacros } from "./macros.ts";

describe("resolveMacros", () => {
  it("fills {{char}} and {{user}} in any case and spacing, and the older <BOT>/<USER>", () => {
    expect(resolveMacros("{{char}} greets {{ User }}. <BOT> and <user>!", "Mira", "Ada")).toBe(
      "Mira greets Ada. Mira and Ada!",
    );
  });

  it("knows when a text names the user", () => {
    expect(mentionsUser("Hello {{USER}}")).toBe(true);
    expect(mentionsUser("Hello <USER>")).toBe(true);
    expect(mentionsUser("Hello {{char}}")).toBe(false);
  });
});
