import type { Persona } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { EllipsisVertical, Pencil, Star, Trash2 } from "lucide-react";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "../../ui/dropdown-menu.tsx";
import { CharacterPicture } from "../characters/character-avatar.tsx";
import type { PersonasReturn } from "./return-state.ts";

export const editPersonaHref = (id: string) => `/personas/edit/${encodeURIComponent(id)}`;

/** A persona on My Personas (at most 180 px wide, §2): avatar, name, highlights, Default badge. */
export function PersonaCard({
  persona,
  linkState,
  busy,
  onSetDefault,
  onDelete,
}: {
  persona: Persona;
  linkState: PersonasReturn;
  busy: boolean;
  onSetDefault: () => void;
  onDelete: () => void;
}) {
  return (
    <article
      className="group relative flex h-full w-full max-w-[180px] flex-col overflow-hidden rounded-xl border border-border bg-surface transition focus-within:border-accent hover:border-border-strong"
      data-persona-card={persona.name}
    >
      <div className="relative">
        <CharacterPicture
          name={persona.name}
          src={persona.avatar_url}
          className="aspect-square w-full text-2xl"
        />
        {persona.is_default ? (
          <span className="absolute bottom-2 left-2 rounded-full bg-bg/85 backdrop-blur">
            <Badge tone="accent">
              <Star aria-hidden className="size-3 fill-current" />
              Default
            </Badge>
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3">
        <h2 className="truncate pr-1 text-sm font-semibold sm:text-base">
          <Link
            to={editPersonaHref(persona.id)}
            state={linkState}
            className="rounded outline-none after:absolute after:inset-0 after:content-['']"
          >
            {persona.name}
          </Link>
        </h2>
        <p className="line-clamp-3 text-xs leading-snug text-muted sm:text-sm">
          {persona.highlights || <span className="italic">No highlights yet</span>}
        </p>
      </div>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Actions for ${persona.name}`}
            disabled={busy}
            className="absolute top-2 right-2 z-10 size-9 rounded-full bg-bg/80 backdrop-blur hover:bg-surface-2"
          >
            <EllipsisVertical aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="min-w-44">
          <DropdownMenuItem asChild>
            <Link to={editPersonaHref(persona.id)} state={linkState}>
              <Pencil aria-hidden />
              Edit
            </Link>
          </DropdownMenuItem>
          {persona.is_default ? null : (
            <DropdownMenuItem onSelect={onSetDefault}>
              <Star aria-hidden />
              Set as default
            </DropdownMenuItem>
          )}
          <DropdownMenuItem onSelect={onDelete} className="text-danger [&_svg]:text-danger">
            <Trash2 aria-hidden />
            Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </article>
  );
}
