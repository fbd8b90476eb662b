import type { Conversation } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import {
  Ban,
  BookOpen,
  Brain,
  Copy,
  Cpu,
  Download,
  Eraser,
  FileUp,
  Heart,
  HeartOff,
  PencilLine,
  ShieldCheck,
  SlidersHorizontal,
  Type,
  UserRound,
  Volume2,
} from "lucide-react";
import { routeEntry } from "../../routes/table.ts";
import { DropdownMenuItem, DropdownMenuSeparator } from "../../ui/dropdown-menu.tsx";
import { blockedCreatorsQuery } from "../blocking/api.ts";
import { characterQuery, useFavorite } from "../characters/api.ts";
import { personaListQuery } from "../personas/api.ts";
import { currentPersona } from "./persona-dialog.tsx";
import type { ToolDialog } from "./use-chat-tools.ts";

export interface ChatMenuAccess {
  /** Members with the personas permission (guests have no personas, §6). */
  personas: boolean;
  /** generation_settings, and not the partner edition (§6). */
  generationSettings: boolean;
  /** memory_manager, and not the partner edition (§6): Manage Memories. */
  memories: boolean;
  /** The viewer created this chatbot (§6: only the creator sees Edit Chatbot). */
  creator: boolean;
  /** Signed in and not a guest: favorites, blocks and lorebooks are members' (§6). */
  member: boolean;
}

/** Add/Remove Bot From Favorite (§2), for members on others' bots (§6: not one's own). */
function FavoriteEntry({ characterId }: { characterId: string }) {
  const character = useQuery(characterQuery(characterId));
  const favorite = useFavorite(characterId);
  const isFavorite = character.data?.is_favorite ?? false;
  return (
    <DropdownMenuItem
      disabled={!character.data || favorite.isPending}
      onSelect={() => favorite.mutate(!isFavorite)}
    >
      {isFavorite ? <HeartOff aria-hidden /> : <Heart aria-hidden />}
      {isFavorite ? "Remove Bot From Favorite" : "Add Bot To Favorite"}
    </DropdownMenuItem>
  );
}

/** Block Creator, or Unblock Creator when they are blocked already (§2), hidden for the creator and guests (§6). */
function BlockEntry({ creatorId, onOpen }: { creatorId: string; onOpen: (dialog: ToolDialog) => void }) {
  const blocked = useQuery(blockedCreatorsQuery);
  const isBlocked = blocked.data?.creators.some((c) => c.id === creatorId) ?? false;
  return isBlocked ? (
    <DropdownMenuItem onSelect={() => onOpen("unblock")}>
      <ShieldCheck aria-hidden />
      Unblock Creator
    </DropdownMenuItem>
  ) : (
    <DropdownMenuItem onSelect={() => onOpen("block")}>
      <Ban aria-hidden />
      Block Creator
    </DropdownMenuItem>
  );
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
 * listed when it works for this viewer (Set Voice also for members without TTS: it brings up the
 * upgrade modal, §4 Voice button).
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
      {access.member && !access.creator ? (
        <>
          <FavoriteEntry characterId={conversation.character_id} />
          <BlockEntry creatorId={conversation.character.creator_user_id} onOpen={onOpen} />
        </>
      ) : null}
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
      {access.memories ? (
        <DropdownMenuItem onSelect={() => onOpen("memories")}>
          <Brain aria-hidden />
          Manage Memories
        </DropdownMenuItem>
      ) : null}
      {access.member ? (
        // Set Voice / Voice Change (§2): the voice modal, or the upgrade modal without TTS (§4).
        <DropdownMenuItem onSelect={() => onOpen("voice")}>
          <Volume2 aria-hidden />
          {conversation.voiceId ? "Voice Change" : "Set Voice"}
        </DropdownMenuItem>
      ) : null}
      {access.member ? (
        <DropdownMenuItem onSelect={() => onOpen("lorebooks")}>
          <BookOpen aria-hidden />
          Lorebooks
        </DropdownMenuItem>
      ) : null}
      {access.generationSettings ? (
        <DropdownMenuItem onSelect={() => onOpen("settings")}>
          <SlidersHorizontal aria-hidden />
          Generation Settings
        </DropdownMenuItem>
      ) : null}
      <DropdownMenuSeparator />
      {access.member ? (
        <DropdownMenuItem onSelect={() => onOpen("importChat")}>
          <FileUp aria-hidden />
          Import chat…
        </DropdownMenuItem>
      ) : null}
      <DropdownMenuItem onSelect={() => onOpen("exportChat")}>
        <Download aria-hidden />
        Export chat…
      </DropdownMenuItem>
    </>
  );
}
