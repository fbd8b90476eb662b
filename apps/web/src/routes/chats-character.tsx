import { useParams } from "@tanstack/react-router";
import { CharacterChatsScreen } from "../features/chats-list/character-chats-screen.tsx";

/** /chats/{characterId} (chat-and-characters §2). */
export default function CharacterChatsRoute() {
  const { characterId } = useParams({ strict: false }) as { characterId?: string };
  if (!characterId) return null;
  return <CharacterChatsScreen key={characterId} characterId={characterId} />;
}
