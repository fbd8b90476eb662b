import { hasVisibleCharacter } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { checkUserFields, ProfileRuleError, repairName } from "./profile-rules.ts";
import { RESERVED_NAME_SAMPLES } from "./reserved-name-samples.ts";
import { isReservedUsername, nameSkeleton, USERNAME_RESERVED } from "./reserved-names.ts";

describe("isReservedUsername", () => {
  it.each(RESERVED_NAME_SAMPLES)("refuses %j", (name) => {
    expect(isReservedUsername(name, "Hearth")).toBe(true);
  });

  it("refuses the brand in any spelling, whatever it is", () => {
    for (const name of ["emberchat", "Ember_Chat", "ember-chat", "3mb3rchat", "ＥｍｂｅｒＣｈａｔ"]) {
      expect(isReservedUsername(name, "Ember Chat"), name).toBe(true);
    }
    expect(isReservedUsername("emberchat", "Hearth")).toBe(false);
  });

  it("lets ordinary names through, those that merely contain a reserved word too", () => {
    for (const name of ["alice", "admiral", "modest", "hearthstone", "guestbook", "rooted", "sysadmin_ann"]) {
      expect(isReservedUsername(name, "Hearth"), name).toBe(false);
    }
  });

  it("compares skeletons: case, width, separators, marks and look-alikes fold away", () => {
    expect(nameSkeleton("De1eted_User")).toBe(nameSkeleton("deleted_user"));
    expect(nameSkeleton("ｄéｌｅｔｅｄ.ｕｓｅｒ")).toBe(nameSkeleton("deleteduser"));
    expect(nameSkeleton("rnod")).toBe(nameSkeleton("mod"));
  });
});

describe("checkUserFields and reserved usernames", () => {
  it("refuses a typed reserved username with the reason, before the alphabet", () => {
    for (const name of ["ADMIN", "аdmin"]) {
      const refusal = (() => {
        try {
          checkUserFields({ username: name }, "typed", "Hearth");
        } catch (error) {
          return error;
        }
      })();
      expect(refusal, name).toBeInstanceOf(ProfileRuleError);
      expect((refusal as ProfileRuleError).message).toBe(USERNAME_RESERVED);
    }
  });

  it("leaves a login provider's reserved username empty, for onboarding to replace", () => {
    expect(checkUserFields({ username: "Support" }, "provided", "Hearth")).toEqual({ username: null });
    expect(checkUserFields({ username: "Ember-Chat" }, "provided", "Ember Chat")).toEqual({ username: null });
    expect(checkUserFields({ username: "river_song" }, "provided", "Hearth")).toEqual({
      username: "river_song",
    });
  });
});

describe("names made only of invisible or combining characters", () => {
  const invisible = [
    "\u200b\u200b\u200b",
    "\u0301\u0301\u0301",
    "\u3164\u3164\u3164",
    "\u2800\u2800\u2800",
    "\ufeff\u200d\u2060",
  ];

  it.each(invisible)("%j has nothing to see", (name) => {
    expect(hasVisibleCharacter(name)).toBe(false);
    // A provider's name is repaired to a visible one, never stored blank.
    expect(repairName(name)).toBe("Member");
  });

  it("keeps names with something to see, accents and emoji included", () => {
    for (const name of ["Zoë", "李小龙", "🙂🙂🙂", "e\u0301mile"])
      expect(hasVisibleCharacter(name), name).toBe(true);
  });
});
