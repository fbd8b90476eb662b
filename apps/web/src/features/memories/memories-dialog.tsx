import { MEMORY_CONTENT_MAX, type MemoryList } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Brain, Plus, RotateCcw } from "lucide-react";
import { type FormEvent, type ReactNode, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { createMemory, memoryListQuery } from "./api.ts";
import { MemoryField, memoryTextOk } from "./memory-field.tsx";
import { MemoryItem } from "./memory-item.tsx";

const n = (value: number) => value.toLocaleString("en-US");

/** "New memory": write a fact, Add memory (off while empty or over 250 characters). */
function NewMemoryForm({ conversationId, full }: { conversationId: string; full: boolean }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);

  const add = async () => {
    if (pending || !memoryTextOk(text)) return;
    setPending(true);
    setError(null);
    try {
      await createMemory(queryClient, conversationId, { content: text.trim() });
      setText("");
      box.current?.focus();
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setPending(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void add();
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-2" aria-label="Add a memory">
      <MemoryField
        ref={box}
        id="new-memory"
        label="New memory"
        value={text}
        onChange={(value) => {
          setText(value);
          if (error) setError(null);
        }}
        onSubmit={() => void add()}
        error={error}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted">
          {full ? "This chat keeps as many memories as it can: delete one first." : "Ctrl+Enter adds it too."}
        </p>
        <Button type="submit" size="sm" disabled={!memoryTextOk(text) || full} loading={pending}>
          {pending ? null : <Plus aria-hidden />}
          Add memory
        </Button>
      </div>
    </form>
  );
}

/** How often an open dialog reads the list again when the model writes memories too. */
const AUTOMATIC_REFRESH_MS = 15_000;

/** The saved memories, or what stands in for them while loading, when empty or on failure. */
function SavedMemories({ conversationId }: { conversationId: string }) {
  const list = useQuery({
    ...memoryListQuery(conversationId),
    // Automatic memories are written in the background after replies: while the dialog is
    // open they show up without reopening it.
    refetchInterval: (query) => (query.state.data?.automatic ? AUTOMATIC_REFRESH_MS : false),
  });
  const heading = useRef<HTMLHeadingElement>(null);
  const data: MemoryList | undefined = list.data;
  const full = data ? data.memories.length >= data.max_memories : false;

  let body: ReactNode;
  if (list.isPending) {
    body = (
      <div className="flex items-center justify-center py-8 text-muted" data-memories-loading>
        <Spinner label="Loading memories" />
      </div>
    );
  } else if (list.isError) {
    body = (
      <Banner
        tone="danger"
        title="The memories could not be loaded."
        action={
          <Button variant="outline" size="sm" loading={list.isFetching} onClick={() => void list.refetch()}>
            <RotateCcw aria-hidden />
            Retry
          </Button>
        }
      >
        {errorMessage(list.error)}
      </Banner>
    );
  } else if (data?.memories.length === 0) {
    body = (
      <EmptyState icon={Brain} title="No memories yet" className="py-8">
        Write a fact above that the character should keep beyond what it can read of this chat: a name, a
        promise, where you are. Pin it to have it used in every reply.
      </EmptyState>
    );
  } else if (data) {
    body = (
      <ul className="flex flex-col gap-2" aria-labelledby="memories-heading">
        {data.memories.map((memory) => (
          <MemoryItem key={memory.id} memory={memory} onGone={() => heading.current?.focus()} />
        ))}
      </ul>
    );
  }

  return (
    <>
      <NewMemoryForm conversationId={conversationId} full={full} />
      <section aria-labelledby="memories-heading" className="mt-5 flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h3
            id="memories-heading"
            ref={heading}
            tabIndex={-1}
            className="text-base font-semibold outline-none"
          >
            Saved memories
          </h3>
          {data && data.memories.length > 0 ? (
            <span className="text-xs text-muted tabular-nums">
              {n(data.memories.length)} of {n(data.max_memories)}
            </span>
          ) : null}
        </div>
        {body}
        {data ? (
          <p className="text-xs text-muted">
            Memories may fill up to {n(data.budget_tokens)} tokens of each prompt on your plan.
            {data.automatic
              ? " Every few exchanges the model also writes memories of its own; they are marked Automatic and can be edited, pinned or deleted like yours."
              : ""}
          </p>
        ) : null}
      </section>
    </>
  );
}

/**
 * Manage Memories (chat-and-characters §2 chat menu, §6 memory_manager): facts a conversation
 * keeps beyond the model's window. Pinned ones always reach the character; the others are
 * picked when they are relevant to the latest messages.
 */
export function MemoriesDialog({
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
          title="Manage Memories"
          description={`What the character keeps from this chat, ${MEMORY_CONTENT_MAX} characters each. Pinned memories always reach the character; the others are used when they are relevant to what you are talking about.`}
          className="sm:max-w-xl"
          onEscapeKeyDown={(event) => {
            // Escape in an edit or a delete confirmation cancels that, not the whole dialog.
            if (event.target instanceof Element && event.target.closest("[data-escape-local]")) {
              event.preventDefault();
            }
          }}
        >
          <SavedMemories conversationId={conversationId} />
          <DialogFooter>
            <DialogClose asChild>
              <Button>Done</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
