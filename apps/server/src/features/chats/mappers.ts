import type { CharacterCard, Conversation, Message } from "@hearth/contract";
import type { ConversationRow, MessageRow } from "./schema.ts";

export function toMessage(m: MessageRow): Message {
  return {
    id: m.id,
    conversation_id: m.conversationId,
    role: m.role,
    content: m.content,
    state: m.state,
    createdAt: m.createdAt.toISOString(),
    image_url: m.imageUrl,
    image_prompt: m.imagePrompt,
    rating: m.rating,
    alternative_index: m.alternativeIndex,
    alternative_count: Math.max(1, m.alternatives.length),
  };
}

export function toConversation(c: ConversationRow, character: CharacterCard): Conversation {
  return {
    id: c.id,
    character_id: c.characterId,
    character,
    user_persona_id: c.userPersonaId,
    label: c.label,
    voiceId: c.voiceId,
    last_message:
      c.lastMessageAt && c.lastMessageRole
        ? {
            createdAt: c.lastMessageAt.toISOString(),
            content: c.lastMessagePreview ?? "",
            role: c.lastMessageRole,
          }
        : null,
    message_count: c.messageCount,
    context_start_message_id: c.contextStartMessageId,
    is_saved: c.isSaved,
    active_generation_id: c.activeGenerationId,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
