import type { Conversation } from "@hearth/contract";
import { useLocation } from "@tanstack/react-router";

/**
 * Where the Personas pages send the user back to when they came from a chat ('Go Back to
 * {character}', chat-and-characters §2). Carried in the history entry's state, so it survives a
 * reload of the page and stays out of the address.
 */
export interface PersonasReturnTarget {
  href: string;
  name: string;
}

declare module "@tanstack/history" {
  interface HistoryState {
    personasReturn?: PersonasReturnTarget;
  }
}

export type PersonasReturn = { personasReturn?: PersonasReturnTarget };

/** The state to open the Personas pages with from a chat. */
export function personasReturnState(conversation: Conversation): PersonasReturn {
  return {
    personasReturn: {
      href: `/chat/${encodeURIComponent(conversation.character_id)}/${encodeURIComponent(conversation.id)}`,
      name: conversation.character.name,
    },
  };
}

/** The chat the user came from, if any; only same-site chat paths are trusted. */
export function usePersonasReturn(): PersonasReturnTarget | undefined {
  const target = useLocation({ select: (location) => location.state.personasReturn });
  if (!target || typeof target.href !== "string" || !target.href.startsWith("/chat/")) return undefined;
  return { href: target.href, name: String(target.name ?? "") };
}

/** Keeps the way back when moving between the Personas pages. */
export function keepReturn(target: PersonasReturnTarget | undefined): PersonasReturn {
  return target ? { personasReturn: target } : {};
}
