import { CONVERSATION_PAGE_SIZE, generationSettings, MESSAGE_MAX, TITLE_MAX } from "@hearth/contract";
import { chatLimits, generationSettingFields } from "@hearth/contract/labels";
import { expect, it } from "vitest";

it("keeps the chat screens' limits equal to the contract", () => {
  expect(chatLimits).toEqual({
    title: TITLE_MAX,
    conversationPage: CONVERSATION_PAGE_SIZE,
    message: MESSAGE_MAX,
  });
});

it("keeps the generation sliders' ranges equal to the contract's schema", () => {
  const shape = generationSettings.shape;
  expect(generationSettingFields.map((field) => field.key).sort()).toEqual(Object.keys(shape).sort());
  for (const field of generationSettingFields) {
    const schema = shape[field.key].unwrap();
    expect([schema.minValue, schema.maxValue], field.key).toEqual([field.min, field.max]);
    expect(field.default, field.key).toBeGreaterThanOrEqual(field.min);
    expect(field.default, field.key).toBeLessThanOrEqual(field.max);
  }
});
