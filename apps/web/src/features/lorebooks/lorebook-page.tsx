import type { Lorebook } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useBlocker, useNavigate } from "@tanstack/react-router";
import { ArrowLeft, BookX, Check } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { createLorebook, lorebookHref, lorebookQuery, updateLorebook } from "./api.ts";
import { type BookErrors, type BookValues, bookErrors, bookFrom, emptyBook } from "./book-values.ts";
import { LorebookEditor } from "./lorebook-editor.tsx";
import { ExportMenu } from "./lorebooks-screen.tsx";

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const backLink = (
  <Button asChild variant="outline">
    <Link to="/lorebooks">
      <ArrowLeft aria-hidden />
      Lorebooks
    </Link>
  </Button>
);

/** A standalone book in the editor, with Save and Discard; `saved` is null for a new one. */
function BookForm({ saved }: { saved: Lorebook | null }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [original, setOriginal] = useState<BookValues>(() => (saved ? bookFrom(saved) : emptyBook()));
  const [values, setValues] = useState<BookValues>(original);
  const [tried, setTried] = useState(false);
  const [pending, setPending] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [notice, setNotice] = useState(false);
  const leaving = useRef(false);
  const dirty = !same(original, values);
  const errors: BookErrors = tried ? bookErrors(values, { named: true }) : {};

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(false), 3000);
    return () => clearTimeout(timer);
  }, [notice]);

  const blocker = useBlocker({
    shouldBlockFn: () => dirty && !leaving.current,
    enableBeforeUnload: () => dirty && !leaving.current,
    withResolver: true,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    setSaveError(null);
    if (Object.keys(bookErrors(values, { named: true })).length) {
      requestAnimationFrame(() =>
        document.querySelector<HTMLElement>("[data-lorebook-editor] [aria-invalid='true']")?.focus(),
      );
      return;
    }
    setPending(true);
    try {
      if (saved) {
        const book = await updateLorebook(queryClient, saved.id, values);
        const next = bookFrom(book);
        setOriginal(next);
        setValues(next);
        setNotice(true);
        setTried(false);
      } else {
        const book = await createLorebook(queryClient, values);
        leaving.current = true;
        await navigate({ to: lorebookHref(book.id), replace: true });
      }
    } catch (caught) {
      const issues = isApiRequestError(caught) ? caught.issues : undefined;
      setSaveError(issues?.length ? (issues[0]?.message ?? errorMessage(caught)) : errorMessage(caught));
    } finally {
      setPending(false);
    }
  };

  const name = saved?.name ?? "New lorebook";
  return (
    <Page width="medium">
      <PageHeader
        title={saved ? `Edit ${name}` : "New lorebook"}
        description="Entries join the prompt of the chats this book is attached to when their keys come up."
        actions={
          <>
            {backLink}
            {saved ? <ExportMenu book={saved} /> : null}
          </>
        }
      />
      <form
        noValidate
        onSubmit={submit}
        className="flex flex-col gap-5"
        aria-label={saved ? `Edit ${name}` : "New lorebook"}
      >
        {saveError ? (
          <Banner tone="danger" title="The lorebook wasn't saved">
            {saveError}
          </Banner>
        ) : null}
        {Object.keys(errors).length ? (
          <Banner tone="danger">Some fields need a look before the lorebook can be saved.</Banner>
        ) : null}
        <div className="rounded-xl border border-border bg-surface p-4 sm:p-6">
          <LorebookEditor value={values} onChange={setValues} named errors={errors} headingLevel={2} />
        </div>
        <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-end gap-3 border-t border-border bg-bg/90 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:border sm:px-4">
          <span className="mr-auto text-sm text-muted" aria-live="polite">
            {notice ? (
              <span className="inline-flex items-center gap-1.5 text-success">
                <Check aria-hidden className="size-4" />
                Lorebook saved
              </span>
            ) : dirty ? (
              "Unsaved changes"
            ) : (
              "No changes"
            )}
          </span>
          <Button
            variant="outline"
            disabled={!dirty || pending}
            onClick={() => {
              setValues(original);
              setTried(false);
              setSaveError(null);
            }}
          >
            Discard
          </Button>
          <Button type="submit" loading={pending} disabled={saved ? !dirty : false}>
            {saved ? "Save" : "Create lorebook"}
          </Button>
        </div>
      </form>

      <Dialog open={blocker.status === "blocked"} onOpenChange={(open) => !open && blocker.reset?.()}>
        {blocker.status === "blocked" ? (
          <DialogContent
            title="Unsaved Changes"
            description="You have changes that aren't saved yet. Leave anyway?"
          >
            <DialogFooter>
              <Button variant="outline" onClick={() => blocker.reset()}>
                Stay and keep editing
              </Button>
              <Button variant="danger" onClick={() => blocker.proceed()}>
                Leave without saving
              </Button>
            </DialogFooter>
          </DialogContent>
        ) : null}
      </Dialog>
    </Page>
  );
}

/** /lorebooks/new: an empty book, created on the first save. */
export function NewLorebookPage() {
  return <BookForm saved={null} />;
}

/** /lorebooks/{id}: one of the member's books (another's, or a deleted one, is not found). */
export function EditLorebookPage({ id }: { id: string }) {
  const book = useQuery(lorebookQuery(id));
  if (book.isPending) return <PageSpinner label="Loading lorebook" />;
  if (book.isError) {
    const missing = isApiRequestError(book.error) && [400, 404].includes(book.error.status);
    return (
      <Page width="medium">
        <PageHeader title="Lorebook" actions={backLink} />
        {missing ? (
          <EmptyState icon={BookX} title="Lorebook not found" headingLevel={2}>
            It may have been deleted. Your lorebooks are listed on the Lorebooks page.
          </EmptyState>
        ) : (
          <LoadErrorBanner
            title="The lorebook couldn't be loaded"
            error={book.error}
            onRetry={() => void book.refetch()}
          />
        )}
      </Page>
    );
  }
  return <BookForm key={book.data.id} saved={book.data} />;
}
