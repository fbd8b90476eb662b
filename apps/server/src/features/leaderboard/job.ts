import type { LeaderboardType } from "@hearth/contract";
import type { Db } from "../../db/client.ts";
import { SYSTEM_USERNAME } from "../characters/index.ts";
import { addMonths, monthOf } from "./months.ts";
import { isFinal, scoreMonth, writeMonth } from "./queries.ts";

const CATEGORIES: readonly LeaderboardType[] = ["new_bots", "all_bots"];

/** How often the scheduled job recomputes the running month. */
export const LEADERBOARD_INTERVAL_MS = 10 * 60_000;

/** Computes and stores one month's table, both categories (each in its own transaction). */
export async function computeMonth(db: Db, month: string, at = new Date()): Promise<void> {
  for (const category of CATEGORIES) {
    await writeMonth(db, month, category, await scoreMonth(db, month, category, SYSTEM_USERNAME), at);
  }
}

/**
 * One run of the scheduled job: the previous month until it has been computed once after its end
 * (then it is final: late ratings no longer move it), then the running month, whose movement is
 * measured against the previous one. Idempotent: a run replaces what an earlier run stored.
 * Answers the months it computed.
 */
export async function runLeaderboardJob(db: Db, now = new Date()): Promise<string[]> {
  const current = monthOf(now);
  const previous = addMonths(current, -1);
  const computed: string[] = [];
  if (!(await isFinal(db, previous))) {
    await computeMonth(db, previous, now);
    computed.push(previous);
  }
  await computeMonth(db, current, now);
  computed.push(current);
  return computed;
}
