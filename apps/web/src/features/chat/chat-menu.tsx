import type { Conversation } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Copy, Cpu, Eraser, PencilLine, SlidersHorizontal, Type, UserRound } from "lucide-react";
import { routeEntry } from "../../routes/table.ts";
import { DropdownMenuItem, DropdownMenuSeparator } from "../../ui/dropdown-menu.tsx";
import { personaListQuery } from "../personas/api.ts";
import { currentPersona } from "./persona-dialog.tsx";
import type { ToolDialog } from "./use-chat-tools.ts";

export interface ChatMenuAccess {
  /** Members with the personas permission (guests have no personas, §6). */
  personas: boolean;
  /** generation_settings, and not the partner edition (§6). */
  generationSettings: boolean;
  /** The viewer created this chatbot (§6: only the creator sees Edit Chatbot). */
  creator: boolean;
}

function PersonaEntryLabel({ conversation }: { conversation: Conversation }) {
  const personas = useQuery(personaListQuery());
  const persona = currentPersona(personas.data?.personas, conversation);
  return (
    <span className="flex min-w-0 flex-col">
      Change Persona
      {persona ? (
        <span className="truncate text-xs text-muted" data-current-persona>
          You're {persona.name}
        </span>
      ) : null}
    </span>
  );
}

/**
 * The chat menu's tool entries (§2), after Start New Chat and View Saved Chats. An entry is only
 * listed when it works for this viewer; the ones not built yet (favorite, block, voice, memories)
 * are left out rather than shown dead.
 */
export function ChatMenuTools({
  conversation,
  access,
  idle,
  onOpen,
  onRemove,
}: {
  conversation: Conversation;
  access: ChatMenuAccess;
  /** Remove and clone wait while a reply is being written. */
  idle: boolean;
  onOpen: (dialog: ToolDialog) => void;
  onRemove: () => void;
}) {
  const editable = access.creator && routeEntry("/chatbot/edit/$characterId")?.screen !== undefined;
  return (
    <>
      <DropdownMenuSeparator />
      <DropdownMenuItem disabled={!idle} onSelect={onRemove}>
        <Eraser aria-hidden />
        Remove Messages
      </DropdownMenuItem>
      {access.personas ? (
        <DropdownMenuItem onSelect={() => onOpen("persona")}>
          <UserRound aria-hidden />
          <PersonaEntryLabel conversation={conversation} />
        </DropdownMenuItem>
      ) : null}
      <DropdownMenuItem disabled={!idle} onSelect={() => onOpen("clone")}>
        <Copy aria-hidden />
        Clone Conversation
      </DropdownMenuItem>
      <DropdownMenuItem onSelect={() => onOpen("title")}>
        <Type aria-hidden />
        Change Title
      </DropdownMenuItem>
      {editable ? (
        <DropdownMenuItem asChild>
          <Link to={`/chatbot/edit/${encodeURIComponent(conversation.character_id)}`}>
            <PencilLine aria-hidden />
            Edit Chatbot
          </Link>
        </DropdownMenuItem>
      ) : null}
      <DropdownMenuSeparator />
      <DropdownMenuItem onSelect={() => onOpen("model")}>
        <Cpu aria-hidden />
        Choose Model
      </DropdownMenuItem>
      {access.generationSettings ? (
        <DropdownMenuItem onSelect={() => onOpen("settings")}>
          <SlidersHorizontal aria-hidden />
          Generation Settings
        </DropdownMenuItem>
      ) : null}
    </>
  );
}
