import { describe, expect, it } from "vitest";
import { benefitsOf } from "./profile-form.tsx";

describe("Your Benefits chips", () => {
  it("name a free member's benefits in words and leave out site access and ads", () => {
    expect(
      benefitsOf([
        "site_access",
        "view_chat",
        "create_character",
        "delete_character",
        "display_ads",
        "personas",
      ]),
    ).toEqual(["Delete your chatbots", "Personas"]);
  });

  it("name a subscriber's paid features", () => {
    expect(benefitsOf(["site_access", "skip_waiting_room", "memory_manager", "4k_context"])).toEqual([
      "Skip the waiting line",
      "Memory manager",
      "4K context memory",
    ]);
  });
});
