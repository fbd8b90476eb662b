import { describe, expect, it } from "vitest";
import { initialDetails, restoreDetails, saveDetails } from "./details-store.ts";
import type { PersonalDetails } from "./rules.ts";

/** sessionStorage's two methods over a Map, as the browser's behave. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
  };
}

const details: PersonalDetails = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  country: "GB",
  state: "ENG",
  postal_code: "SW1A 1AA",
};

describe("checkout details in session storage (§3, §4)", () => {
  it("restores what was saved for the same account", () => {
    const storage = memoryStorage();
    saveDetails(storage, "user-1", details);
    expect(restoreDetails(storage, "user-1")).toEqual(details);
  });

  it("keeps each account's details apart", () => {
    const storage = memoryStorage();
    saveDetails(storage, "user-1", details);
    expect(restoreDetails(storage, "user-2")).toBeNull();
  });

  it("restores nothing from an empty, blank or broken entry", () => {
    const storage = memoryStorage();
    expect(restoreDetails(storage, "user-1")).toBeNull();
    storage.items.set("hearth.checkout.user-1", "{not json");
    expect(restoreDetails(storage, "user-1")).toBeNull();
    storage.items.set("hearth.checkout.user-1", JSON.stringify(["Ada"]));
    expect(restoreDetails(storage, "user-1")).toBeNull();
    storage.items.set("hearth.checkout.user-1", JSON.stringify({ first_name: "", email: "" }));
    expect(restoreDetails(storage, "user-1")).toBeNull();
    expect(restoreDetails(null, "user-1")).toBeNull();
  });

  it("drops unknown fields and wrong types, and cuts values to their limits", () => {
    const storage = memoryStorage();
    storage.items.set(
      "hearth.checkout.user-1",
      JSON.stringify({
        first_name: "A".repeat(50),
        last_name: 7,
        card_number: "4242",
        postal_code: "1".repeat(40),
      }),
    );
    expect(restoreDetails(storage, "user-1")).toEqual({
      first_name: "A".repeat(30),
      last_name: "",
      email: "",
      country: "",
      state: "",
      postal_code: "1".repeat(16),
    });
  });

  it("survives storage that refuses to be read or written", () => {
    const blocked = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    expect(() => saveDetails(blocked, "user-1", details)).not.toThrow();
    expect(restoreDetails(blocked, "user-1")).toBeNull();
  });

  it("starts from the restored details, else the account's e-mail and the guessed country", () => {
    expect(initialDetails(details, { email: "other@example.com" }, "US")).toEqual(details);
    expect(initialDetails(null, { email: "ada@example.com" }, "US")).toEqual({
      first_name: "",
      last_name: "",
      email: "ada@example.com",
      country: "US",
      state: "",
      postal_code: "",
    });
    expect(initialDetails(null, { email: null }, "").email).toBe("");
  });
});
