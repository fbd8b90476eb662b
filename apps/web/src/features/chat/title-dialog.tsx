import type { Conversation } from "@hearth/contract";
import { chatLimits } from "@hearth/contract/labels";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import { updateConversation } from "./api.ts";

/** "12 / 50" beside a label. */
export function Counter({ id, length, max }: { id: string; length: number; max: number }) {
  return (
    <span id={id} className={cn("text-xs tabular-nums", length >= max ? "text-warning" : "text-muted")}>
      {length} / {max}
      <span className="sr-only"> characters</span>
    </span>
  );
}

function TitleForm({ conversation, onDone }: { conversation: Conversation; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(conversation.label ?? "");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const trimmed = title.trim();

  const save = async (label: string | null) => {
    setPending(true);
    setError(null);
    try {
      await updateConversation(queryClient, conversation.id, { label });
      onDone();
    } catch (cause) {
      setError(errorMessage(cause));
      setPending(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed) void save(trimmed);
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-3">
        <Label htmlFor="conversation-title">Title</Label>
        <Counter id="conversation-title-count" length={title.length} max={chatLimits.title} />
      </div>
      <Input
        id="conversation-title"
        value={title}
        maxLength={chatLimits.title}
        autoComplete="off"
        placeholder="A name for this chat"
        aria-describedby="conversation-title-count"
        onChange={(event) => setTitle(event.target.value)}
      />
      {error ? (
        <Banner tone="danger" className="mt-2">
          {error}
        </Banner>
      ) : null}
      <DialogFooter>
        {conversation.label ? (
          <Button variant="ghost" className="sm:mr-auto" disabled={pending} onClick={() => void save(null)}>
            Remove title
          </Button>
        ) : null}
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={!trimmed} loading={pending}>
          Update
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Update title (§2 modals, §5: at most 50 characters, Update disabled while empty). */
export function TitleDialog({
  conversation,
  open,
  onOpenChange,
}: {
  conversation: Conversation;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent
          title="Update title"
          description="The title shows above the chat and in your list of chats."
        >
          <TitleForm conversation={conversation} onDone={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
