import type { LorebookSummary } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { BookOpen, Download, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "../../ui/dropdown-menu.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { deleteLorebook, lorebookExportHref, lorebookHref, lorebookListQuery } from "./api.ts";
import { ImportLorebook } from "./import-lorebook.tsx";

export const exportFormats = [
  { format: "worldinfo", label: "World Info JSON" },
  { format: "character_book", label: "Card character_book JSON" },
] as const;

const updated = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });

/** Download links for one book, in both formats. */
export function ExportMenu({
  book,
  label = "Export",
}: {
  book: { id: string; name: string };
  label?: string;
}) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`${label} ${book.name}`}>
          <Download aria-hidden />
          {label}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {exportFormats.map(({ format, label: formatLabel }) => (
          <DropdownMenuItem key={format} asChild>
            <a href={lorebookExportHref(book.id, format)} download>
              {formatLabel}
            </a>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function DeleteLorebookDialog({ book, onClose }: { book: LorebookSummary | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const confirm = async () => {
    if (!book) return;
    setPending(true);
    setError(null);
    try {
      await deleteLorebook(queryClient, book.id);
      close();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open={book !== null} onOpenChange={(open) => !open && close()}>
      {book ? (
        <DialogContent
          title="Delete lorebook"
          description={`${book.name} and its ${book.entry_count} ${book.entry_count === 1 ? "entry are" : "entries are"} removed for good, and taken out of every chat it is attached to.`}
        >
          {error ? <Banner tone="danger">{error}</Banner> : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button variant="danger" loading={pending} onClick={() => void confirm()}>
              Delete lorebook
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/** /lorebooks: the member's standalone lorebooks, with create, import, export and delete. */
export function LorebooksScreen() {
  const list = useQuery(lorebookListQuery);
  const [deleting, setDeleting] = useState<LorebookSummary | null>(null);
  const books = list.data?.lorebooks ?? [];
  const full = list.data ? books.length >= list.data.max_lorebooks : false;

  const newButton = (
    <Button asChild={!full} disabled={full}>
      {full ? (
        "New lorebook"
      ) : (
        <Link to="/lorebooks/new">
          <Plus aria-hidden />
          New lorebook
        </Link>
      )}
    </Button>
  );

  return (
    <Page width="medium">
      <PageHeader
        title="Lorebooks"
        description="World info you can attach to any of your chats: entries join the prompt when their keys come up."
        actions={newButton}
      />
      <div className="mb-6">
        <ImportLorebook disabled={full} />
      </div>
      {full ? (
        <Banner tone="info" className="mb-4">
          You have {list.data?.max_lorebooks} lorebooks, the most you can keep. Delete one to add another.
        </Banner>
      ) : null}
      {list.isPending ? (
        <PageSpinner label="Loading lorebooks" />
      ) : list.isError ? (
        <LoadErrorBanner
          title="Your lorebooks couldn't be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : books.length === 0 ? (
        <EmptyState icon={BookOpen} title="No lorebooks yet" headingLevel={2}>
          Write one, or import a SillyTavern world-info file or a card's lorebook. Then attach it to a chat
          from the chat's menu.
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Your lorebooks">
          {books.map((book) => (
            <li
              key={book.id}
              className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 sm:flex-row sm:items-center"
            >
              <div className="flex min-w-0 flex-1 flex-col gap-0.5">
                <Link
                  to={lorebookHref(book.id)}
                  className="truncate font-semibold text-fg underline-offset-4 hover:underline"
                >
                  {book.name}
                </Link>
                {book.description ? (
                  <p className="line-clamp-2 text-sm text-muted">{book.description}</p>
                ) : null}
                <p className="text-xs text-muted">
                  {book.entry_count} {book.entry_count === 1 ? "entry" : "entries"} · Updated{" "}
                  {updated(book.updated_at)}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Button asChild variant="outline" size="sm">
                  <Link to={lorebookHref(book.id)} aria-label={`Edit ${book.name}`}>
                    <Pencil aria-hidden />
                    Edit
                  </Link>
                </Button>
                <ExportMenu book={book} />
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-danger"
                  aria-label={`Delete ${book.name}`}
                  onClick={() => setDeleting(book)}
                >
                  <Trash2 aria-hidden />
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <DeleteLorebookDialog book={deleting} onClose={() => setDeleting(null)} />
    </Page>
  );
}
