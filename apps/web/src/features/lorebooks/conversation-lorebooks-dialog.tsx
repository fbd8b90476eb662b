import type { ConversationLorebooks, LorebookList } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { BookOpen, RotateCcw } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { conversationLorebooksQuery, lorebookListQuery, setConversationLorebooks } from "./api.ts";

/** The checkbox list, once both the member's books and this chat's are known. */
function Chooser({
  conversationId,
  books,
  attached,
  onDone,
}: {
  conversationId: string;
  books: LorebookList;
  attached: ConversationLorebooks;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string[]>(() => attached.lorebooks.map((b) => b.id));
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const max = attached.max_lorebooks;
  const full = chosen.length >= max;
  const changed =
    chosen.length !== attached.lorebooks.length || attached.lorebooks.some((b) => !chosen.includes(b.id));

  const save = async () => {
    setPending(true);
    setError(null);
    try {
      await setConversationLorebooks(queryClient, conversationId, chosen);
      onDone();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(false);
    }
  };

  if (books.lorebooks.length === 0) {
    return (
      <>
        <EmptyState
          icon={BookOpen}
          title="You have no lorebooks yet"
          className="py-8"
          action={
            <Button asChild variant="outline">
              <Link to="/lorebooks">Go to Lorebooks</Link>
            </Button>
          }
        >
          Write or import one on the Lorebooks page, then attach it here.
        </EmptyState>
        <DialogFooter>
          <DialogClose asChild>
            <Button>Close</Button>
          </DialogClose>
        </DialogFooter>
      </>
    );
  }

  return (
    <>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm text-muted">
          Up to {max} per chat: {chosen.length} chosen.
        </legend>
        {books.lorebooks.map((book) => {
          const checked = chosen.includes(book.id);
          return (
            <label
              key={book.id}
              className="flex cursor-pointer items-start gap-3 rounded-lg border border-border p-3 transition hover:border-border-strong has-checked:border-accent has-checked:bg-accent-soft has-disabled:cursor-not-allowed has-disabled:opacity-60"
            >
              <input
                type="checkbox"
                className="mt-0.5 size-4 shrink-0 accent-(--brand-accent)"
                checked={checked}
                disabled={!checked && full}
                onChange={(event) =>
                  setChosen((current) =>
                    event.target.checked ? [...current, book.id] : current.filter((id) => id !== book.id),
                  )
                }
              />
              <span className="flex min-w-0 flex-col">
                <span className="truncate text-sm font-medium">{book.name}</span>
                <span className="text-xs text-muted">
                  {book.entry_count} {book.entry_count === 1 ? "entry" : "entries"}
                  {book.description ? ` · ${book.description}` : ""}
                </span>
              </span>
            </label>
          );
        })}
      </fieldset>
      <p className="mt-3 text-xs text-muted">
        These are used in this chat only, alongside the character's own lorebook.{" "}
        <Link to="/lorebooks" className="text-accent-text underline underline-offset-4">
          Manage your lorebooks
        </Link>
      </p>
      {error ? (
        <Banner tone="danger" title="The lorebooks weren't changed" className="mt-3">
          {error}
        </Banner>
      ) : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button loading={pending} disabled={!changed} onClick={() => void save()}>
          Save
        </Button>
      </DialogFooter>
    </>
  );
}

function Body({ conversationId, onDone }: { conversationId: string; onDone: () => void }) {
  const books = useQuery(lorebookListQuery);
  const attached = useQuery(conversationLorebooksQuery(conversationId));
  if (books.isPending || attached.isPending) {
    return (
      <div className="flex items-center justify-center py-8 text-muted">
        <Spinner label="Loading lorebooks" />
      </div>
    );
  }
  if (books.isError || attached.isError) {
    return (
      <Banner
        tone="danger"
        title="The lorebooks could not be loaded."
        action={
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              void books.refetch();
              void attached.refetch();
            }}
          >
            <RotateCcw aria-hidden />
            Retry
          </Button>
        }
      >
        {errorMessage(books.error ?? attached.error)}
      </Banner>
    );
  }
  return (
    <Chooser conversationId={conversationId} books={books.data} attached={attached.data} onDone={onDone} />
  );
}

/** The chat menu's Lorebooks: attach the member's own books to this conversation. */
export function ConversationLorebooksDialog({
  conversationId,
  open,
  onOpenChange,
}: {
  conversationId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent
          title="Lorebooks"
          description="Attach your lorebooks to this chat: their entries join the prompt when their keys come up."
          className="sm:max-w-lg"
        >
          <Body conversationId={conversationId} onDone={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
