import { useParams } from "@tanstack/react-router";
import { ChatScreen } from "../features/chat/chat-screen.tsx";
import { OpenLatestChat } from "../features/chat/open-latest-chat.tsx";

/** /chat/{characterId} and /chat/{characterId}/{conversationId} (chat-and-characters §2). */
export default function ChatRoute() {
  const { characterId, conversationId } = useParams({ strict: false }) as {
    characterId?: string;
    conversationId?: string;
  };
  if (!characterId) return null;
  // Keyed: another conversation is a fresh screen (its own state, stream and scroll).
  if (conversationId) return <ChatScreen key={conversationId} conversationId={conversationId} />;
  return <OpenLatestChat key={characterId} characterId={characterId} />;
}
