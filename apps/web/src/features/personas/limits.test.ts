import {
  DEFAULT_PERSONA_DELETE_MESSAGE,
  PERSONA_HIGHLIGHTS_MAX,
  PERSONA_NAME_MAX,
  personaErrorType,
} from "@hearth/contract";
import { defaultPersonaDeleteMessage, personaErrorMessages, personaLimits } from "@hearth/contract/labels";
import { expect, it } from "vitest";

it("keeps the persona pages' limits and messages equal to the contract", () => {
  expect(personaLimits).toEqual({ name: PERSONA_NAME_MAX, highlights: PERSONA_HIGHLIGHTS_MAX });
  expect(defaultPersonaDeleteMessage).toBe(DEFAULT_PERSONA_DELETE_MESSAGE);
  expect(Object.keys(personaErrorMessages).sort()).toEqual([...personaErrorType.options].sort());
});
