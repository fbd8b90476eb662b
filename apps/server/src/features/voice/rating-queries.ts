import type { Db } from "../../db/client.ts";
import { productEvents } from "../ads/schema.ts";

/**
 * Rate voice quality (chat-and-characters §2 message menu). A rating is a product event
 * (`voiceQuality`: the voice in `action`, the rating 1-4 in `detail`), kept in the product
 * events table with the others, for the operator's analytics, and deleted with them after
 * HEARTH_EVENTS_RETENTION_DAYS or with the account.
 */
export interface VoiceRating {
  userId: string;
  messageId: string;
  conversationId: string;
  characterId: string;
  voiceId: string;
  rating: number;
}

export interface VoiceRatings {
  record(rating: VoiceRating): Promise<void>;
}

export const VOICE_QUALITY_EVENT = "voiceQuality";

export function productEventRatings(db: Db): VoiceRatings {
  return {
    async record(r) {
      await db.insert(productEvents).values({
        userId: r.userId,
        eventName: VOICE_QUALITY_EVENT,
        action: r.voiceId,
        characterId: r.characterId,
        conversationId: r.conversationId,
        messageId: r.messageId,
        detail: String(r.rating),
      });
    },
  };
}
