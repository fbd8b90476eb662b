import { Link } from "@tanstack/react-router";
import { FilePen, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { CharacterPicture } from "../../features/characters/character-avatar.tsx";
import {
  type CharacterDraft,
  deleteDraft,
  draftHref,
  draftTitle,
  useDrafts,
} from "../../features/characters/drafts.ts";
import { timeAgo } from "../../features/characters/format.ts";
import { useMe } from "../../lib/session.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";

function DraftCard({ draft, onDelete }: { draft: CharacterDraft; onDelete: () => void }) {
  const title = draftTitle(draft);
  const subtitle = draft.values?.title ?? "";
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-xl border border-border bg-surface transition hover:border-border-strong focus-within:border-accent">
      <div className="relative">
        <CharacterPicture name={title} src={draft.avatar_url} className="aspect-[4/5] w-full text-3xl" />
        {draft.kind === "fix" ? (
          <span className="absolute top-2 left-2 rounded-full bg-bg/85 backdrop-blur">
            <Badge tone="danger">ACTION</Badge>
          </span>
        ) : null}
      </div>
      <div className="flex flex-1 flex-col gap-1 p-3">
        <h2 className="truncate text-sm font-semibold sm:text-base">
          <Link
            to={draftHref(draft)}
            className="rounded outline-none after:absolute after:inset-0 after:content-['']"
          >
            {title}
          </Link>
        </h2>
        {subtitle ? <p className="line-clamp-2 text-xs text-muted sm:text-sm">{subtitle}</p> : null}
        <p className="mt-auto pt-1 text-xs text-muted">
          {draft.kind === "fix" ? "Needs a fix · " : ""}Saved {timeAgo(draft.updated_at)}
        </p>
      </div>
      <Button
        variant="ghost"
        size="icon"
        aria-label={`Delete draft ${title}`}
        className="absolute top-2 right-2 z-10 size-9 rounded-full bg-bg/80 backdrop-blur hover:bg-surface-2"
        onClick={onDelete}
      >
        <Trash2 aria-hidden />
      </Button>
    </article>
  );
}

/** Drafts kept on this device (chat-and-characters §2, "Drafts page"). */
export default function DraftsScreen() {
  const me = useMe();
  const userId = me?.id ?? "";
  const drafts = useDrafts(userId);
  const [deleting, setDeleting] = useState<CharacterDraft | null>(null);

  return (
    <Page>
      <PageHeader
        title="Drafts"
        description="Chatbots you started on this device, and fixes in progress. They aren't visible to anyone else."
        actions={
          <Button asChild variant="outline">
            <Link to="/my-chatbots">My Chatbots</Link>
          </Button>
        }
      />
      {drafts.length === 0 ? (
        <EmptyState
          icon={FilePen}
          title="No drafts"
          headingLevel={2}
          action={
            <Button asChild>
              <Link to="/chatbot/create">
                <Plus aria-hidden />
                Create a chatbot
              </Link>
            </Button>
          }
        >
          What you type on the create page is kept here until you create the chatbot.
        </EmptyState>
      ) : (
        <ul
          aria-label="Drafts"
          className="grid grid-cols-[repeat(auto-fill,minmax(160px,1fr))] gap-3 sm:gap-5"
        >
          {drafts.map((draft) => (
            <li key={draft.id}>
              <DraftCard draft={draft} onDelete={() => setDeleting(draft)} />
            </li>
          ))}
        </ul>
      )}

      <Dialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        {deleting ? (
          <DialogContent
            title={`Delete the draft ${draftTitle(deleting)}?`}
            description={
              deleting.kind === "fix"
                ? "Your unsaved fixes are dropped. The chatbot itself stays as it is."
                : "What you wrote is removed from this device."
            }
          >
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Cancel</Button>
              </DialogClose>
              <Button
                variant="danger"
                onClick={() => {
                  deleteDraft(userId, deleting.id);
                  setDeleting(null);
                }}
              >
                Delete draft
              </Button>
            </DialogFooter>
          </DialogContent>
        ) : null}
      </Dialog>
    </Page>
  );
}
