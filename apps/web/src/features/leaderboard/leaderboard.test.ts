import type { LeaderboardHit } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { monthLabel } from "./api.ts";
import { sortHits } from "./table.tsx";

const hit = (
  rank: number,
  name: string,
  bots: number,
  score: number,
  movement: number | null,
): LeaderboardHit => ({
  id: `2031-02:all_bots:${name}`,
  date: "2031-02",
  type: "all_bots",
  rank,
  creator_user_id: name,
  creator_username: name,
  number_of_characters: bots,
  score,
  movement,
  avatar_url: null,
});

describe("leaderboard table", () => {
  const hits = [
    hit(1, "bo", 1, 400, 1),
    hit(2, "Ada", 3, 250, -1),
    hit(3, "cyd", 2, 120, 0),
    hit(4, "dee", 1, 60, null),
  ];
  const names = (list: LeaderboardHit[]) => list.map((h) => h.creator_username);

  it("sorts by every column, ties kept in rank order", () => {
    expect(names(sortHits(hits, "rank", "descending"))).toEqual(["dee", "cyd", "Ada", "bo"]);
    expect(names(sortHits(hits, "creator", "ascending"))).toEqual(["Ada", "bo", "cyd", "dee"]);
    expect(names(sortHits(hits, "bots", "descending"))).toEqual(["Ada", "cyd", "bo", "dee"]);
    expect(names(sortHits(hits, "score", "ascending"))).toEqual(["dee", "cyd", "Ada", "bo"]);
    // Newcomers (no movement) sort below any known movement.
    expect(names(sortHits(hits, "movement", "descending"))).toEqual(["bo", "cyd", "Ada", "dee"]);
  });

  it("names a month as the server counts it (UTC)", () => {
    expect(monthLabel("2031-02")).toBe("February 2031");
    expect(monthLabel("2030-12")).toBe("December 2030");
  });
});
