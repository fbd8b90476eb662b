import type { OrderResponse } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { resultOf, THREE_DS_FAILED, threeDsResult } from "./three-ds.ts";

const origin = "https://hearth.example";

describe("the 3-D Secure message (§4)", () => {
  it("takes the outcome from Hearth's own origin only", () => {
    const data = { type: "hearth-3ds", status: "success", error_message: null };
    expect(threeDsResult({ origin, data }, origin)).toEqual(data);
    expect(threeDsResult({ origin: "https://bank.example", data }, origin)).toBeNull();
  });

  it("ignores other messages", () => {
    for (const data of [
      null,
      "hearth-3ds",
      { type: "other", status: "success" },
      { type: "hearth-3ds", status: "maybe" },
    ]) {
      expect(threeDsResult({ origin, data }, origin)).toBeNull();
    }
  });

  it("keeps a failure's message, and only a string one", () => {
    expect(
      threeDsResult(
        { origin, data: { type: "hearth-3ds", status: "failure", error_message: "Declined" } },
        origin,
      ),
    ).toMatchObject({ status: "failure", error_message: "Declined" });
    expect(
      threeDsResult(
        { origin, data: { type: "hearth-3ds", status: "failure", error_message: { html: "<b>" } } },
        origin,
      ),
    ).toMatchObject({ error_message: null });
  });

  it("turns the confirmed order into the message: Approved is success, the rest failure", () => {
    const order: OrderResponse = {
      resp_msg: "Approved",
      order_id: "o1",
      status: "approved",
      subscription_id: "s1",
      transaction_id: "pi_1",
      iframe_3ds_url: null,
      error_message: null,
    };
    expect(resultOf(order)).toEqual({ type: "hearth-3ds", status: "success", error_message: null });
    expect(
      resultOf({ ...order, resp_msg: "Declined", status: "failed", error_message: "Authentication failed." }),
    ).toEqual({ type: "hearth-3ds", status: "failure", error_message: "Authentication failed." });
    expect(resultOf({ ...order, resp_msg: "Requires action", status: "requires_action" }).error_message).toBe(
      THREE_DS_FAILED,
    );
  });
});
