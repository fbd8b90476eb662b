import { CONVERSATION_PAGE_SIZE, MESSAGE_MAX, TITLE_MAX } from "@hearth/contract";
import { chatLimits } from "@hearth/contract/labels";
import { expect, it } from "vitest";

it("keeps the chat screens' limits equal to the contract", () => {
  expect(chatLimits).toEqual({
    title: TITLE_MAX,
    conversationPage: CONVERSATION_PAGE_SIZE,
    message: MESSAGE_MAX,
  });
});
