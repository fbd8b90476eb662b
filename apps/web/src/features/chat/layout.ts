import { createContext, useContext } from "react";
import { useAppSettings } from "../../lib/app-settings.ts";
import { useStored } from "../characters/local-store.ts";

/**
 * The two chat-page layouts (chat-and-characters §2 Chat screen): the second, newer one (replies
 * on the left, the member's messages on the right) when the operator's flag chat_layout_v2 is on
 * (HEARTH_FLAG_CHAT_LAYOUT_V2, the default); the older one (every message on the left under its
 * sender's name) when it is off, and kept for one local-storage mode: a browser where
 * `hearth.chat.layout` holds "classic" keeps the older layout whatever the flag.
 */
export type ChatLayout = "v2" | "classic";

export const CHAT_LAYOUT_KEY = "hearth.chat.layout";

export function chatLayoutOf(flagV2: boolean, stored: unknown): ChatLayout {
  return flagV2 && stored !== "classic" ? "v2" : "classic";
}

export function useChatLayout(): ChatLayout {
  const flag = useAppSettings().flags.chat_layout_v2;
  const [stored] = useStored<string | null>(CHAT_LAYOUT_KEY, null);
  return chatLayoutOf(flag, stored);
}

export const ChatLayoutContext = createContext<ChatLayout>("v2");
export const useRowLayout = () => useContext(ChatLayoutContext);
