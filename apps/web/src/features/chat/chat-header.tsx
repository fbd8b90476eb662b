import type { CharacterCard } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { EllipsisVertical, History, SquarePen } from "lucide-react";
import type { ReactNode } from "react";
import { routeEntry } from "../../routes/table.ts";
import { Avatar } from "../../ui/avatar.tsx";
import { Button } from "../../ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "../../ui/dropdown-menu.tsx";
import { ShareDialog } from "../characters/share-dialog.tsx";
import { RateChatbot } from "../ratings/rate-chatbot.tsx";
import { useWaitingGate } from "../waiting-room/use-waiting-room.ts";

const built = (path: string) => routeEntry(path)?.screen !== undefined;

interface ChatHeaderProps {
  character: CharacterCard;
  /** Guests' chats aren't saved, so they have no saved chats to view. */
  canViewSaved: boolean;
  startingNew: boolean;
  onStartNew: () => void;
  /** The conversation's title (Change Title), shown under the name. */
  title?: string | null;
  /** The chat tools' entries, after View Saved Chats. */
  tools?: ReactNode;
}

/** The character's avatar and name stay in view above the conversation, with its actions. */
export function ChatHeader({
  character,
  canViewSaved,
  startingNew,
  onStartNew,
  title = null,
  tools,
}: ChatHeaderProps) {
  const profile = built("/chatbot/$characterId") ? `/chatbot/${encodeURIComponent(character.id)}` : null;
  const creator = character.creator_username;
  const creatorPage =
    creator && built("/creator/$username") ? `/creator/${encodeURIComponent(creator)}` : null;
  const shareable = character.visibility === "public" || character.visibility === "hidden";
  // Like is hidden while waiting in line (§4 "Waiting queue").
  const gated = useWaitingGate();

  return (
    <div className="shrink-0 border-b border-border bg-bg/85 backdrop-blur-md">
      <div className="mx-auto flex h-16 w-full max-w-[800px] items-center gap-2 px-3 sm:px-5">
        <div className="flex min-w-0 flex-1 items-center gap-3">
          {profile ? (
            <Link to={profile} tabIndex={-1} aria-hidden className="shrink-0 rounded-full">
              <Avatar name={character.name} src={character.avatar_url} size="md" />
            </Link>
          ) : (
            <Avatar name={character.name} src={character.avatar_url} size="md" />
          )}
          <div className="flex min-w-0 flex-col">
            <h1 className="truncate text-base leading-tight font-semibold">
              {profile ? (
                <Link to={profile} className="rounded hover:underline">
                  {character.name}
                </Link>
              ) : (
                character.name
              )}
            </h1>
            <div className="flex min-w-0 items-baseline gap-1.5 text-xs text-muted">
              {creator ? (
                creatorPage ? (
                  <Link to={creatorPage} className="w-fit shrink-0 truncate rounded hover:text-fg">
                    @{creator}
                  </Link>
                ) : (
                  <span className="shrink-0 truncate">@{creator}</span>
                )
              ) : null}
              {title ? (
                <>
                  {creator ? <span aria-hidden>·</span> : null}
                  <span className="min-w-0 truncate text-fg/80" data-conversation-title title={title}>
                    <span className="sr-only">Title: </span>
                    {title}
                  </span>
                </>
              ) : null}
            </div>
          </div>
        </div>
        <div className="flex shrink-0 items-center gap-0.5">
          {gated ? null : <RateChatbot character={character} />}
          {shareable ? <ShareDialog characterId={character.id} name={character.name} compact /> : null}
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" aria-label="Chat menu" disabled={startingNew}>
                <EllipsisVertical aria-hidden />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem onSelect={onStartNew}>
                <SquarePen aria-hidden />
                Start New Chat
              </DropdownMenuItem>
              {canViewSaved ? (
                <DropdownMenuItem asChild>
                  <Link to={`/chats/${encodeURIComponent(character.id)}`}>
                    <History aria-hidden />
                    View Saved Chats
                  </Link>
                </DropdownMenuItem>
              ) : null}
              {tools}
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>
    </div>
  );
}
