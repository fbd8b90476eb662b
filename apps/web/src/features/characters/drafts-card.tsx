import { Link } from "@tanstack/react-router";
import { FilePen } from "lucide-react";
import { CharacterPicture } from "./character-avatar.tsx";
import { type CharacterDraft, draftTitle } from "./drafts.ts";

/** My Chatbots' Drafts card: the count and up to three thumbnails, leading to the drafts page. */
export function DraftsCard({ drafts }: { drafts: CharacterDraft[] }) {
  const shown = drafts.slice(0, 3);
  return (
    <article className="group relative flex h-full min-h-56 flex-col justify-between gap-4 overflow-hidden rounded-xl border border-dashed border-border-strong bg-surface p-4 transition hover:border-accent focus-within:border-accent">
      <div className="flex flex-col gap-1">
        <FilePen aria-hidden className="size-5 text-accent-text" />
        <h2 className="text-base font-semibold">
          <Link
            to="/my-chatbots/drafts"
            className="rounded outline-none after:absolute after:inset-0 after:content-['']"
          >
            Drafts
          </Link>
        </h2>
        <p className="text-sm text-muted">
          {drafts.length === 0
            ? "No drafts on this device"
            : `${drafts.length} ${drafts.length === 1 ? "draft" : "drafts"} on this device`}
        </p>
      </div>
      {shown.length ? (
        <ul aria-label="Latest drafts" className="flex -space-x-3">
          {shown.map((draft) => (
            <li key={draft.id}>
              <CharacterPicture
                name={draftTitle(draft)}
                src={draft.avatar_url}
                className="size-14 rounded-xl border-2 border-surface text-base"
              />
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}
