import { z } from "zod";

/** Subscriber roles as the spec names them (accounts-billing-admin §1, §6). */
export const subscriberRole = z.enum(["free", "minimal", "basic", "premium"]);
export type SubscriberRole = z.infer<typeof subscriberRole>;

/** Subscription standing: only `active` grants the role's paid features. */
export const accountStatus = z.enum(["active", "cancelled", "grace", "expired", "inactive"]);
export type AccountStatus = z.infer<typeof accountStatus>;

/** Moderation restriction on an account. `none` is the ordinary state. */
export const restriction = z.enum(["none", "limited", "temporary", "complete"]);
export type Restriction = z.infer<typeof restriction>;

export const permission = z.enum([
  "site_access",
  "view_chat",
  "view_my_chat_bots",
  "create_character",
  "report_character",
  "limited_access",
  "restriction_complete",
  "restriction_temporary",
  "delete_character",
  "generation_settings",
  "conversation_images",
  "conversation_images_v2",
  "image_training",
  "3k_context",
  "4k_context",
  "8k_context",
  "memory_manager",
  "conversation_memory_auto",
  "display_ads",
  "skip_waiting_room",
  "priority_queue",
  "personas",
  "TTS",
  "admin",
]);
export type Permission = z.infer<typeof permission>;

/** Context memory sizes of spec §9 (chat-and-characters). */
export const contextSizes = [2048, 3072, 4096, 8192, 16384] as const;
