import type { Visibility } from "@hearth/contract";
import { describe, expect, it } from "vitest";
import { HttpError } from "../../http/errors.ts";
import { type Viewer, viewerFromUser } from "../accounts/viewer.ts";
import {
  assertCanCreate,
  assertCanDelete,
  assertCanEdit,
  assertCanExport,
  assertCanFavorite,
  assertCanListOwn,
  assertCanModerate,
  assertCanOpenEditor,
  assertCanView,
  canChat,
  type MaybeViewer,
  type PolicyCharacter,
} from "./policy.ts";

/**
 * The policy table, role by role, without HTTP. Outcomes: "ok", or the HTTP status and code the
 * route answers with. The API tests check the same rules end to end.
 */
type Who =
  | "signed out"
  | "guest"
  | "free"
  | "minimal"
  | "basic"
  | "premium"
  | "creator"
  | "admin"
  | "restricted"
  | "limited";
type Outcome = "ok" | `${number} ${string}`;

const CREATOR_ID = "creator";

function viewer(who: Who): MaybeViewer {
  if (who === "signed out") return null;
  const paid = who === "minimal" || who === "basic" || who === "premium";
  return viewerFromUser({
    id: who === "creator" ? CREATOR_ID : `user-${who}`,
    email: `${who}@example.com`,
    name: who,
    createdAt: new Date(),
    isAnonymous: who === "guest",
    role: paid ? who : "free",
    status: paid ? "active" : "inactive",
    restriction: who === "restricted" ? "complete" : who === "limited" ? "limited" : "none",
    isAdmin: who === "admin",
  });
}

function bot(visibility: Visibility, extra: Partial<PolicyCharacter> = {}): PolicyCharacter {
  return {
    creatorUserId: CREATOR_ID,
    visibility,
    deletedAt: null,
    definitionVisible: false,
    moderationStatus: "approved",
    ...extra,
  };
}

function outcome(fn: () => unknown): Outcome {
  try {
    fn();
    return "ok";
  } catch (error) {
    if (error instanceof HttpError) return `${error.status} ${error.code}`;
    throw error;
  }
}

const ALL: Who[] = [
  "signed out",
  "guest",
  "free",
  "minimal",
  "basic",
  "premium",
  "creator",
  "admin",
  "restricted",
  "limited",
];
const MEMBERS: Who[] = ["free", "minimal", "basic", "premium"];

function table(rows: Partial<Record<Who, Outcome>> & { others: Outcome }): Record<Who, Outcome> {
  return Object.fromEntries(ALL.map((w) => [w, rows[w] ?? rows.others])) as Record<Who, Outcome>;
}

const cases: { action: string; run: (v: MaybeViewer) => unknown; expect: Record<Who, Outcome> }[] = [
  {
    action: "create",
    run: (v) => assertCanCreate(v),
    expect: table({
      "signed out": "401 unauthorized",
      guest: "403 forbidden",
      restricted: "403 restricted",
      limited: "403 forbidden",
      others: "ok",
    }),
  },
  {
    action: "view a public bot",
    run: (v) => assertCanView(v, bot("public")),
    expect: table({ restricted: "403 restricted", others: "ok" }),
  },
  {
    action: "view a hidden (unlisted) bot",
    run: (v) => assertCanView(v, bot("hidden")),
    expect: table({ restricted: "403 restricted", others: "ok" }),
  },
  ...(["private", "permanently_private"] as const).map((visibility) => ({
    action: `view a ${visibility} bot`,
    run: (v: MaybeViewer) => assertCanView(v, bot(visibility)),
    expect: table({ creator: "ok", admin: "ok", restricted: "403 restricted", others: "404 invalidAccess" }),
  })),
  {
    action: "view a deleted bot",
    run: (v) => assertCanView(v, bot("public", { deletedAt: new Date() })),
    expect: table({ restricted: "403 restricted", others: "404 invalidAccess" }),
  },
  {
    action: "open the editor of a public bot",
    run: (v) => assertCanOpenEditor(v, bot("public")),
    expect: table({
      "signed out": "401 unauthorized",
      creator: "ok",
      admin: "ok",
      restricted: "403 restricted",
      others: "403 forbidden",
    }),
  },
  {
    action: "edit a public bot",
    run: (v) => assertCanEdit(v, bot("public")),
    expect: table({
      "signed out": "401 unauthorized",
      creator: "ok",
      admin: "ok",
      restricted: "403 restricted",
      others: "403 forbidden",
    }),
  },
  {
    action: "edit a bot in review",
    run: (v) => assertCanEdit(v, bot("public", { moderationStatus: "pending" })),
    expect: table({
      "signed out": "401 unauthorized",
      creator: "409 conflict",
      admin: "ok",
      restricted: "403 restricted",
      others: "403 forbidden",
    }),
  },
  {
    action: "delete a public bot",
    run: (v) => assertCanDelete(v, bot("public")),
    expect: table({
      "signed out": "401 unauthorized",
      creator: "ok",
      admin: "ok",
      restricted: "403 restricted",
      others: "403 forbidden",
    }),
  },
  {
    action: "export a bot whose definition is private",
    run: (v) => assertCanExport(v, bot("public")),
    expect: table({ creator: "ok", admin: "ok", restricted: "403 restricted", others: "403 forbidden" }),
  },
  {
    action: "export a bot whose definition is shared",
    run: (v) => assertCanExport(v, bot("public", { definitionVisible: true })),
    expect: table({ restricted: "403 restricted", others: "ok" }),
  },
  {
    action: "favorite a public bot",
    run: (v) => assertCanFavorite(v, bot("public")),
    expect: table({
      "signed out": "401 unauthorized",
      guest: "403 forbidden",
      creator: "400 invalidRequest",
      restricted: "403 restricted",
      others: "ok",
    }),
  },
  {
    action: "list own bots (My Chatbots)",
    run: (v) => assertCanListOwn(v),
    expect: table({
      "signed out": "401 unauthorized",
      guest: "403 forbidden",
      restricted: "403 restricted",
      limited: "403 forbidden",
      others: "ok",
    }),
  },
  {
    action: "complete a review",
    run: (v) => assertCanModerate(v),
    expect: table({
      "signed out": "401 unauthorized",
      admin: "ok",
      restricted: "403 restricted",
      others: "403 forbidden",
    }),
  },
];

describe("characters policy", () => {
  for (const c of cases) {
    it(c.action, () => {
      const got = Object.fromEntries(ALL.map((w) => [w, outcome(() => c.run(viewer(w)))]));
      expect(got).toEqual(c.expect);
    });
  }

  it("a limited creator may open but not save their bot, nor delete it", () => {
    const limitedCreator = { ...(viewer("limited") as Viewer), id: CREATOR_ID };
    expect(outcome(() => assertCanOpenEditor(limitedCreator, bot("public")))).toBe("ok");
    expect(outcome(() => assertCanEdit(limitedCreator, bot("public")))).toBe("403 forbidden");
    expect(outcome(() => assertCanDelete(limitedCreator, bot("public")))).toBe("403 forbidden");
  });

  it("canChat: visible to the viewer and not restricted", () => {
    for (const who of MEMBERS) expect(canChat(viewer(who), bot("public"))).toBe(true);
    expect(canChat(null, bot("hidden"))).toBe(true);
    expect(canChat(viewer("free"), bot("private"))).toBe(false);
    expect(canChat(viewer("creator"), bot("private"))).toBe(true);
    expect(canChat(viewer("admin"), bot("permanently_private"))).toBe(true);
    expect(canChat(viewer("restricted"), bot("public"))).toBe(false);
    expect(canChat(viewer("creator"), bot("public", { deletedAt: new Date() }))).toBe(false);
  });
});
