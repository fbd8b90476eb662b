import type { AccountStatus, Permission, Restriction, SubscriberRole } from "@hearth/contract";

/**
 * The one place where a user's permissions are derived (accounts-billing-admin §6,
 * chat-and-characters §6). The server enforces these; the client reads them from /api/me.
 */
export interface PermissionSubject {
  isGuest: boolean;
  role: SubscriberRole;
  status: AccountStatus;
  restriction: Restriction;
  isAdmin: boolean;
}

/** What a guest may do: look around and chat, nothing saved, nothing premium. */
const GUEST: readonly Permission[] = ["site_access", "view_chat"];

/** A signed-in member on the free tier. */
const FREE: readonly Permission[] = [
  ...GUEST,
  "view_my_chat_bots",
  "create_character",
  "report_character",
  "delete_character",
  "personas",
  "display_ads",
];

/** What each paid tier adds on top of the tier below it, while its subscription is active. */
const TIER_GRANTS: Record<Exclude<SubscriberRole, "free">, readonly Permission[]> = {
  // Get a Taste: skip the waiting line, memory manager, personas.
  minimal: ["skip_waiting_room", "memory_manager", "3k_context"],
  // True Supporter: 4K context, semantic memory, longer responses, conversation images, voice.
  basic: [
    "4k_context",
    "conversation_memory_auto",
    "generation_settings",
    "conversation_images",
    "conversation_images_v2",
    "TTS",
  ],
  // I'm All In: priority queue, image training, 8K context (16K on 16K models).
  premium: ["priority_queue", "image_training", "8k_context"],
};

const TIER_ORDER: readonly Exclude<SubscriberRole, "free">[] = ["minimal", "basic", "premium"];

/** Paid standing needs an active subscription; cancelled keeps access until the recur date. */
export function hasPaidStanding(status: AccountStatus): boolean {
  return status === "active" || status === "cancelled";
}

export function effectiveRole(subject: Pick<PermissionSubject, "role" | "status">): SubscriberRole {
  return hasPaidStanding(subject.status) ? subject.role : "free";
}

export function derivePermissions(subject: PermissionSubject): Permission[] {
  if (subject.restriction === "complete") return ["restriction_complete"];
  if (subject.restriction === "temporary") return ["restriction_temporary"];
  if (subject.isGuest) return [...GUEST];

  const granted = new Set<Permission>(FREE);
  const role = effectiveRole(subject);
  if (role !== "free") {
    granted.delete("display_ads");
    for (const tier of TIER_ORDER.slice(0, TIER_ORDER.indexOf(role) + 1)) {
      for (const p of TIER_GRANTS[tier]) granted.add(p);
    }
  }
  if (subject.isAdmin) {
    for (const tier of TIER_ORDER) for (const p of TIER_GRANTS[tier]) granted.add(p);
    granted.delete("display_ads");
    granted.add("admin");
  }
  if (subject.restriction === "limited") {
    // Limited users keep reading and chatting; creating, reporting and premium features are withdrawn.
    return ["site_access", "view_chat", "limited_access"];
  }
  return [...granted].sort();
}

/**
 * Context memory in tokens (chat-and-characters §6, §9): 2048 by default, 3072 with 3k_context,
 * 4096 with 4k_context, and with 8k_context 8192 on 8K models or 16384 on 16K models.
 */
export function contextTokens(permissions: readonly Permission[], modelTokens: 8192 | 16384 = 8192): number {
  const has = (p: Permission) => permissions.includes(p);
  if (has("8k_context")) return modelTokens >= 16384 ? 16384 : 8192;
  if (has("4k_context")) return 4096;
  if (has("3k_context")) return 3072;
  return 2048;
}
