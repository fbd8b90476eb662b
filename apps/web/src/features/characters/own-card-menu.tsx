import type { CharacterCard } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { EllipsisVertical, Flag, Pencil, Trash2 } from "lucide-react";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "../../ui/dropdown-menu.tsx";
import { editHref, reportBuilt } from "./links.ts";

/** Edit, delete and (once the report page exists) report, on a creator's own card. */
export function OwnCardMenu({ character, onDelete }: { character: CharacterCard; onDelete: () => void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label={`Actions for ${character.name}`}
        className="flex size-9 items-center justify-center rounded-full bg-bg/80 text-fg shadow-card backdrop-blur transition hover:bg-surface-2 data-[state=open]:bg-surface-2"
      >
        <EllipsisVertical aria-hidden className="size-4" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="min-w-44">
        <DropdownMenuItem asChild>
          <Link to={editHref(character.id)}>
            <Pencil aria-hidden />
            Edit
          </Link>
        </DropdownMenuItem>
        {reportBuilt() ? (
          <DropdownMenuItem asChild>
            <Link to={`/report/${character.id}`}>
              <Flag aria-hidden />
              Report
            </Link>
          </DropdownMenuItem>
        ) : null}
        <DropdownMenuItem onSelect={onDelete} className="text-danger [&_svg]:text-danger">
          <Trash2 aria-hidden />
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
