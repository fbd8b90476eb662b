import { ChatsScreen } from "../features/chats-list/chats-screen.tsx";

/** /chats (chat-and-characters §2). */
export default function ChatsRoute() {
  return <ChatsScreen />;
}
