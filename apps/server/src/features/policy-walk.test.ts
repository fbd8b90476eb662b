import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Config } from "../config.ts";
import { HttpError } from "../http/errors.ts";
import { assertCanTransferAccount } from "./account-transfer/policy.ts";
import {
  assertCanChangeOwnProfile,
  assertPermission,
  canChangeUser,
  canImpersonate,
  canManageUsers,
  isAdministrator,
} from "./accounts/policy.ts";
import { type Viewer, viewerFromUser } from "./accounts/viewer.ts";
import { assertCanManageAds, assertCanSendEvents, mayShowAds } from "./ads/policy.ts";
import { assertCanBlock } from "./blocking/policy.ts";
import {
  assertCanChat,
  assertCanCreate,
  assertCanDelete,
  assertCanEdit,
  assertCanExport,
  assertCanKeepFavorites,
  assertCanModerate as assertCanModerateCharacters,
  assertCanOpenEditor,
  assertCanSetVisibility,
  canSeeDefinition,
  canView,
  favoritesSeeEveryBot,
  type PolicyCharacter,
} from "./characters/policy.ts";
import { assertCanExportChat, assertCanImportChats } from "./chat-transfer/policy.ts";
import { assertMayMakeImages, mayImagePrivateBots } from "./chats/generation/image-policy.ts";
import type { ImageServices } from "./chats/generation/images.ts";
import { assertMayGenerate } from "./chats/generation/policy.ts";
import { assertOwnsConversation } from "./chats/policy.ts";
import type { ConversationRow } from "./chats/schema.ts";
import { assertCanReadTraining, assertCanTrain } from "./image-training/policy.ts";
import { assertCanKeepLorebooks } from "./lorebooks/policy.ts";
import { assertCanManageMemories } from "./memories/policy.ts";
import { assertCanModerate, assertCanReport } from "./moderation/policy.ts";
import { assertCanUsePersonas, personaLimitFor } from "./personas/policy.ts";
import { assertCanLinkPledge } from "./pledges/policy.ts";
import { assertCanRate, assertCanReviewSuggestions, assertCanSeeRatings } from "./ratings/policy.ts";
import { assertCanUseVoice } from "./voice/policy.ts";
import { assertMayAsk, HEAD_START_S, priorityOf, skipsWaitingRoom } from "./waiting-room/policy.ts";

/**
 * Every feature's policy, asked by an administrator in each restriction state, with a plain
 * administrator and a free member as controls. Administrator rights come from the derived
 * permissions, so an administrator restricted in any way keeps none of them; a `temporary` or
 * `complete` restriction leaves only what the restriction page needs (its data rights).
 */

type Who = "admin" | "limited admin" | "temporary admin" | "complete admin" | "member";
const EVERYONE: readonly Who[] = ["admin", "limited admin", "temporary admin", "complete admin", "member"];

function person(restriction: "none" | "limited" | "temporary" | "complete", isAdmin: boolean): Viewer {
  return viewerFromUser({
    id: randomUUID(),
    email: `${randomUUID()}@example.com`,
    name: "Someone",
    createdAt: new Date(),
    username: `u${randomUUID().slice(0, 8)}`,
    role: "free",
    status: "inactive",
    restriction,
    isAdmin,
  });
}

const viewers: Record<Who, Viewer> = {
  admin: person("none", true),
  "limited admin": person("limited", true),
  "temporary admin": person("temporary", true),
  "complete admin": person("complete", true),
  member: person("none", false),
};

const otherMember = person("none", false);
const bot = (over: Partial<PolicyCharacter> = {}) => ({
  creatorUserId: otherMember.id,
  visibility: "public" as const,
  deletedAt: null,
  definitionVisible: true,
  moderationStatus: "approved" as const,
  isNsfw: false,
  avatarKey: null,
  loraStatus: "not_trained" as const,
  ...over,
});
const otherPublic = bot();
const otherPrivate = bot({ visibility: "private" });
const hiddenDefinition = bot({ definitionVisible: false });
const conversationOf = (userId: string) => ({ userId }) as ConversationRow;
const config = { dailyLimits: { guest: 5, free: 10, paid: 100 } } as Config;
const images = {
  backend: {},
  readyForImages: () => true,
} as unknown as ImageServices;
const site = { edition: "roleplay", memoryManager: true } as const;
const adSite = {
  edition: "roleplay",
  product: { ads: { provider: "house" }, events: { analytics: true } },
} as never;
const limits = { free: 3, minimal: 5, basic: 10, premium: 20 };

/** A check and who it lets through; `data right`: one a temporary or complete restriction keeps. */
interface Row {
  check: string;
  allows: (v: Viewer) => unknown;
  allowed: readonly Who[];
  needsAdmin?: boolean;
  dataRight?: boolean;
}

const ADMIN_ONLY: readonly Who[] = ["admin"];
const MEMBERS: readonly Who[] = ["admin", "limited admin", "member"];
const FULL_MEMBERS: readonly Who[] = ["admin", "member"];

const rows: Row[] = [
  { check: "accounts: isAdministrator", allows: isAdministrator, allowed: ADMIN_ONLY, needsAdmin: true },
  { check: "accounts: canManageUsers", allows: canManageUsers, allowed: ADMIN_ONLY, needsAdmin: true },
  {
    check: "accounts: canChangeUser",
    allows: (v) => canChangeUser(v, otherMember.id, { role: "premium" }),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "accounts: canImpersonate",
    allows: (v) => canImpersonate(v, otherMember),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  { check: "accounts: assertCanChangeOwnProfile", allows: assertCanChangeOwnProfile, allowed: MEMBERS },
  { check: "accounts: view_chat", allows: (v) => assertPermission(v, "view_chat"), allowed: MEMBERS },
  {
    check: "account-transfer: export",
    allows: (v) => assertCanTransferAccount(v, "export"),
    allowed: EVERYONE,
    dataRight: true,
  },
  {
    check: "account-transfer: import",
    allows: (v) => assertCanTransferAccount(v, "import"),
    allowed: MEMBERS,
  },
  { check: "ads: assertCanManageAds", allows: assertCanManageAds, allowed: ADMIN_ONLY, needsAdmin: true },
  { check: "ads: assertCanSendEvents", allows: assertCanSendEvents, allowed: MEMBERS },
  { check: "ads: mayShowAds", allows: (v) => mayShowAds(v, adSite), allowed: ["member"] },
  { check: "blocking: assertCanBlock", allows: assertCanBlock, allowed: MEMBERS },
  {
    check: "characters: canView another's private bot",
    allows: (v) => canView(v, otherPrivate),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "characters: canSeeDefinition of a hidden definition",
    allows: (v) => canSeeDefinition(v, hiddenDefinition),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "characters: assertCanExport a hidden definition",
    allows: (v) => assertCanExport(v, hiddenDefinition),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "characters: assertCanOpenEditor of another's bot",
    allows: (v) => assertCanOpenEditor(v, otherPublic),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "characters: assertCanEdit another's bot",
    allows: (v) => assertCanEdit(v, otherPublic),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "characters: assertCanDelete another's bot",
    allows: (v) => assertCanDelete(v, otherPublic),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "characters: lift permanently_private",
    allows: (v) => assertCanSetVisibility(v, "permanently_private", "public"),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "characters: assertCanModerate",
    allows: assertCanModerateCharacters,
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "characters: favorites keep every bot",
    allows: favoritesSeeEveryBot,
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  { check: "characters: assertCanChat", allows: (v) => assertCanChat(v, otherPublic), allowed: MEMBERS },
  { check: "characters: assertCanCreate", allows: assertCanCreate, allowed: FULL_MEMBERS },
  { check: "characters: assertCanKeepFavorites", allows: assertCanKeepFavorites, allowed: MEMBERS },
  {
    check: "chat-transfer: export another member's chat",
    allows: (v) => assertCanExportChat(v, conversationOf(otherMember.id)),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "chat-transfer: export one's own chat",
    allows: (v) => assertCanExportChat(v, conversationOf(v.id)),
    allowed: MEMBERS,
  },
  { check: "chat-transfer: assertCanImportChats", allows: assertCanImportChats, allowed: MEMBERS },
  {
    check: "chats: another member's conversation",
    allows: (v) => assertOwnsConversation(v, conversationOf(otherMember.id)),
    allowed: [],
  },
  {
    check: "chats: one's own conversation",
    allows: (v) => assertOwnsConversation(v, conversationOf(v.id)),
    allowed: MEMBERS,
  },
  {
    check: "generation: a message past the free limit (paid standing)",
    allows: (v) => assertMayGenerate(config, v, true, config.dailyLimits.free),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "generation: a picture on a private bot",
    allows: (v) => assertMayMakeImages(v, otherPrivate, images),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "generation: mayImagePrivateBots",
    allows: mayImagePrivateBots,
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  { check: "image-training: assertCanTrain", allows: assertCanTrain, allowed: ADMIN_ONLY, needsAdmin: true },
  { check: "image-training: assertCanReadTraining", allows: assertCanReadTraining, allowed: MEMBERS },
  { check: "lorebooks: assertCanKeepLorebooks", allows: assertCanKeepLorebooks, allowed: MEMBERS },
  {
    check: "memories: assertCanManageMemories",
    allows: (v) => assertCanManageMemories(v, site),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "moderation: assertCanModerate",
    allows: assertCanModerate,
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  { check: "moderation: assertCanReport", allows: assertCanReport, allowed: FULL_MEMBERS },
  { check: "personas: assertCanUsePersonas", allows: assertCanUsePersonas, allowed: FULL_MEMBERS },
  {
    check: "personas: no persona limit",
    allows: (v) => personaLimitFor(v, limits) === null,
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  { check: "pledges: assertCanLinkPledge", allows: assertCanLinkPledge, allowed: MEMBERS },
  { check: "ratings: assertCanRate", allows: (v) => assertCanRate(v, otherPublic), allowed: MEMBERS },
  {
    check: "ratings: another creator's tag suggestions",
    allows: (v) => assertCanReviewSuggestions(v, otherPublic),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "ratings: a private bot's ratings",
    allows: (v) => assertCanSeeRatings(v, otherPrivate),
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  { check: "voice: assertCanUseVoice", allows: assertCanUseVoice, allowed: ADMIN_ONLY, needsAdmin: true },
  {
    check: "waiting-room: skipsWaitingRoom",
    allows: skipsWaitingRoom,
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  {
    check: "waiting-room: first in line",
    allows: (v) => priorityOf(v) === HEAD_START_S.priority,
    allowed: ADMIN_ONLY,
    needsAdmin: true,
  },
  { check: "waiting-room: assertMayAsk", allows: assertMayAsk, allowed: MEMBERS },
];

/** Whether the check lets the viewer through: a refusal is an HttpError or a false answer. */
function lets(row: Row, viewer: Viewer): boolean {
  try {
    const answer = row.allows(viewer);
    return answer !== false;
  } catch (error) {
    if (error instanceof HttpError) return false;
    throw error;
  }
}

describe("every policy, asked by administrators under each restriction", () => {
  it.each(rows)("$check", (row) => {
    const through = EVERYONE.filter((who) => lets(row, viewers[who]));
    expect(through).toEqual(EVERYONE.filter((who) => row.allowed.includes(who)));
  });

  it("lets no restricted administrator use an administrator's right", () => {
    for (const row of rows.filter((r) => r.needsAdmin)) {
      for (const who of ["limited admin", "temporary admin", "complete admin"] as const) {
        expect(`${row.check}: ${who} ${lets(row, viewers[who])}`).toBe(`${row.check}: ${who} false`);
      }
    }
  });

  it("leaves temporary and complete restrictions only their data rights", () => {
    for (const row of rows.filter((r) => !r.dataRight)) {
      for (const who of ["temporary admin", "complete admin"] as const) {
        expect(`${row.check}: ${who} ${lets(row, viewers[who])}`).toBe(`${row.check}: ${who} false`);
      }
    }
  });

  it("refuses a temporary or complete restriction with 403 restricted, so the client shows its page", () => {
    for (const who of ["temporary admin", "complete admin"] as const) {
      const refusal = (() => {
        try {
          assertCanChat(viewers[who], otherPublic);
        } catch (error) {
          return error;
        }
      })();
      expect(refusal).toMatchObject({ status: 403, code: "restricted" });
    }
  });
});
