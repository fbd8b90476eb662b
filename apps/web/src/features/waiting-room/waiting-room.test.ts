import type { Me, QueueState } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import {
  accessIdleMinutes,
  bannerWords,
  isActiveSubscriber,
  minutesLeft,
  nextCheckMs,
  openView,
  viewOf,
} from "./waiting-room.ts";

const bot = "11111111-1111-4111-8111-111111111111";

function me(extra: Partial<Me> = {}): Me {
  return {
    id: "u1",
    email: "a@example.com",
    name: "A",
    username: "a",
    avatar_url: null,
    role: "free",
    status: "inactive",
    restriction: "none",
    is_guest: false,
    is_admin: false,
    permissions: ["site_access", "view_chat"],
    context_tokens: 2048,
    created_at: "2026-01-01T00:00:00.000Z",
    ...extra,
  };
}

function state(extra: Partial<QueueState> = {}): QueueState {
  return {
    status: "waiting",
    retry_after: 30,
    bypass: null,
    position: 3,
    time_left: 150,
    expires_in: null,
    enabled: true,
    ...extra,
  };
}

describe("minutesLeft", () => {
  it("shows the estimate from 60 s on, in whole minutes rounded up", () => {
    expect(minutesLeft(null)).toBeNull();
    expect(minutesLeft(0)).toBeNull();
    expect(minutesLeft(59)).toBeNull();
    expect(minutesLeft(60)).toBe(1);
    expect(minutesLeft(61)).toBe(2);
    expect(minutesLeft(150)).toBe(3);
    expect(minutesLeft(600)).toBe(10);
  });

  it("follows the operator's threshold and retry interval (app settings)", () => {
    const timing = { time_shown_from_s: 180, retry_after_s: 45, access_idle_s: 300 };
    expect(minutesLeft(150, timing)).toBeNull();
    expect(minutesLeft(180, timing)).toBe(3);
    expect(accessIdleMinutes(timing)).toBe(5);
    expect(accessIdleMinutes()).toBe(20);
    expect(nextCheckMs(undefined, true, timing)).toBe(45_000);
  });
});

describe("viewOf", () => {
  it("gates a member waiting without a bypass, with position and estimate", () => {
    expect(viewOf(state(), false, me(), bot)).toEqual({
      gated: true,
      position: 3,
      minutesLeft: 3,
      expired: false,
    });
    expect(bannerWords(viewOf(state(), false, me(), bot))).toEqual({
      position: "Waiting Room Position 3",
      time: "Estimated Time Left 3 min",
    });
    expect(bannerWords(viewOf(state({ time_left: 20 }), false, me(), bot)).time).toBeNull();
  });

  it("opens the chat with access, with the room off, before any answer, or with a bypass for this bot", () => {
    expect(viewOf(state({ status: "access", position: null, expires_in: 1200 }), false, me(), bot)).toBe(
      openView,
    );
    expect(viewOf(state({ enabled: false }), false, me(), bot)).toBe(openView);
    expect(viewOf(undefined, false, me(), bot)).toBe(openView);
    expect(viewOf(state({ bypass: bot }), false, me(), bot)).toBe(openView);
    // A bypass for another character does not open this one.
    expect(viewOf(state({ bypass: "22222222-2222-4222-8222-222222222222" }), false, me(), bot).gated).toBe(
      true,
    );
  });

  it("says an expired spot once the queue answers expired", () => {
    const view = viewOf(state({ status: "expired", position: null, time_left: null }), false, me(), bot);
    expect(view).toMatchObject({ gated: true, expired: true, position: null, minutesLeft: null });
    expect(bannerWords(view).position).toBe("Waiting Room: finding your place");
  });

  it("on a failed read lets active subscribers chat and puts everyone else in line", () => {
    const taste = me({
      role: "minimal",
      status: "active",
      permissions: ["site_access", "skip_waiting_room"],
    });
    expect(viewOf(undefined, true, taste, bot)).toBe(openView);
    expect(viewOf(state(), true, me({ role: "basic", status: "active" }), bot)).toBe(openView);
    expect(viewOf(undefined, true, me(), bot).gated).toBe(true);
    expect(viewOf(undefined, true, me({ role: "basic", status: "expired" }), bot).gated).toBe(true);
    expect(isActiveSubscriber(me({ is_guest: true, role: "premium", status: "active" }))).toBe(false);
  });
});

describe("nextCheckMs", () => {
  it("asks again after retry_after while waiting, at once on refresh, when access lapses, never when off", () => {
    expect(nextCheckMs(state({ retry_after: 12 }), false)).toBe(12_000);
    expect(nextCheckMs(state({ status: "expired", retry_after: 0 }), false)).toBe(1000);
    expect(nextCheckMs(state({ status: "refresh", retry_after: 0 }), false)).toBe(500);
    expect(nextCheckMs(state({ status: "access", expires_in: 1199 }), false)).toBe(1_200_000);
    expect(nextCheckMs(state({ status: "access", expires_in: null }), false)).toBe(false);
    expect(nextCheckMs(state({ enabled: false }), false)).toBe(false);
    expect(nextCheckMs(undefined, false)).toBe(false);
    expect(nextCheckMs(undefined, true)).toBe(30_000);
  });
});
