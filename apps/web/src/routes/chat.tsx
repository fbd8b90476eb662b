import { useQuery } from "@tanstack/react-query";
import { useLocation, useParams } from "@tanstack/react-router";
import { SignInGate } from "../features/auth/sign-in-gate.tsx";
import { characterQuery } from "../features/characters/api.ts";
import { CharacterPicture } from "../features/characters/character-avatar.tsx";
import { useEffectiveNsfw } from "../features/characters/preferences.ts";
import { ChatScreen } from "../features/chat/chat-screen.tsx";
import { OpenLatestChat } from "../features/chat/open-latest-chat.tsx";
import { useMe } from "../lib/session.ts";

/**
 * A chat opened signed out (a share link): who the character is, and the ways in. A private or
 * deleted one has no name to show; the chat itself says so once there is a session.
 */
function SignedOutChat({ characterId }: { characterId: string }) {
  const character = useQuery({ ...characterQuery(characterId), retry: false });
  const showNsfw = useEffectiveNsfw();
  const href = useLocation({ select: (location) => location.href });
  const data = character.data;
  return (
    <SignInGate
      heading={data ? `Chat with ${data.name}` : "Sign in to chat"}
      picture={
        data ? (
          <CharacterPicture
            name={data.name}
            src={data.avatar_url}
            blurred={data.avatar_is_nsfw && !showNsfw}
            className="size-24 rounded-2xl text-2xl"
          />
        ) : null
      }
      // A guest starts their own chat; the conversation in a link is someone else's.
      guestTo={`/chat/${encodeURIComponent(characterId)}`}
      signInTo={href}
    />
  );
}

/** /chat/{characterId} and /chat/{characterId}/{conversationId} (chat-and-characters §2). */
export default function ChatRoute() {
  const me = useMe();
  const { characterId, conversationId } = useParams({ strict: false }) as {
    characterId?: string;
    conversationId?: string;
  };
  if (!characterId) return null;
  if (!me) return <SignedOutChat key={characterId} characterId={characterId} />;
  // Keyed: another conversation is a fresh screen (its own state, stream and scroll).
  if (conversationId) return <ChatScreen key={conversationId} conversationId={conversationId} />;
  return <OpenLatestChat key={characterId} characterId={characterId} />;
}
