import { z } from "zod";

/**
 * GET /api/app-settings (issue 17 item 4): what the client loads at start so an operator changes
 * the product's switches and constants in configuration, not in code. Brand and edition repeat
 * /api/config's for clients that read only this.
 */
export const appSettings = z.object({
  brand: z.object({ name: z.string(), accent: z.string(), logo_url: z.string().nullable() }),
  edition: z.enum(["roleplay", "family", "partner"]),
  /** Partner mode: no ads and no product analytics (chat-and-characters §1). */
  partner: z.boolean(),
  /** The feature flags both documents name. */
  flags: z.object({
    /** The newer two-column chatbot profile (chat-and-characters §2 Chatbot profile). */
    new_profile: z.boolean(),
    /** The second chat-page layout; off, the older one (chat-and-characters §2 Chat screen). */
    chat_layout_v2: z.boolean(),
    /** The narrower profile-settings layout (accounts-billing-admin §2.2 Profile settings). */
    profile_v2: z.boolean(),
    /** Onboarding v2: the username rules of accounts-billing-admin §5 in the welcome steps. */
    onboarding_v2: z.boolean(),
  }),
  limits: z.object({
    /** How long a notification (toast) stays, in milliseconds (chat-and-characters §9). */
    notification_ms: z.number().int(),
    ads: z.object({
      /** Ads may be shown here at all (a provider is on and this is not partner mode). */
      enabled: z.boolean(),
      /** An ad appears only once a chat has more than this many messages (and more than 2). */
      min_messages: z.number().int(),
      /** Messages between two ads in one chat. */
      interval: z.number().int(),
    }),
    waiting_room: z.object({
      /** The estimate is shown from this many seconds on. */
      time_shown_from_s: z.number().int(),
      /** The queue is asked again after this many seconds when the server names none. */
      retry_after_s: z.number().int(),
      /** Access lapses after this many idle seconds. */
      access_idle_s: z.number().int(),
    }),
    max_tags: z.number().int(),
    title_max: z.number().int(),
    conversation_page_size: z.number().int(),
  }),
  /** Chat-UI events are logged for the operator's product analytics (off in partner mode). */
  analytics: z.boolean(),
});
export type AppSettings = z.infer<typeof appSettings>;
