import type { AdminReviewPage, ApiError, AuditLogPage, CharacterPage } from "@hearth/contract";
import { afterAll, beforeAll, expect } from "vitest";
import type { Driver } from "../../../test/databases.ts";
import { startTestHearth, type TestHearth } from "../../../test/harness.ts";
import { api, MEMBER_ROLES, type Person, personAs, type Role } from "../characters/test-support.ts";

/**
 * One Hearth per test file for the moderation tests, with a person of every role, a creator and
 * another member, and the calls the tests share. `h`, `a` and the people are set in beforeAll.
 */
export function moderationSuite(driver: Driver) {
  const t = {
    people: {} as Record<Role, Person>,
  } as {
    h: TestHearth;
    a: ReturnType<typeof api>;
    people: Record<Role, Person>;
    admin: Person;
    creator: Person;
    other: Person;
  };
  beforeAll(async () => {
    // Reviews on (the default): new and edited public bots wait for a moderator.
    t.h = await startTestHearth({ driver });
    t.a = api(t.h);
    for (const role of ["signed out", "guest", ...MEMBER_ROLES, "admin", "restricted", "limited"] as Role[]) {
      t.people[role] = await personAs(t.h, role);
    }
    t.admin = t.people.admin;
    t.creator = await personAs(t.h, "free", "Creator");
    t.other = await personAs(t.h, "basic", "Other");
  });
  afterAll(async () => {
    await t.h.stop();
  });

  const err = (res: { json: <T>() => T }) => res.json<ApiError>();
  const reviewsOf = async (characterId: string, query = "status=open") => {
    const res = await t.a.get(`/api/admin/reviews?${query}&limit=100`, t.admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AdminReviewPage>().reviews.filter((r) => r.character_id === characterId);
  };
  const audit = async (targetId: string) => {
    const res = await t.a.get(`/api/admin/audit-log?target_id=${targetId}`, t.admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AuditLogPage>().entries;
  };
  const listedNames = async (q: string) =>
    (await t.a.get(`/api/characters?q=${encodeURIComponent(q)}`))
      .json<CharacterPage>()
      .characters.map((c) => c.name);
  const report = (who: Person | undefined, body: Record<string, unknown>) =>
    t.a.post("/api/reportCharacter", body, who);
  const validReport = (id: string) => ({
    character_id: id,
    userIssueType: "Hate or harassment",
    userReportDetails: "The greeting insults the reader.",
    userExpectedResolution: "Ask the creator to fix it",
  });
  return { t, err, reviewsOf, audit, listedNames, report, validReport };
}
