import { chatLimits } from "@hearth/contract/labels";
import { ListEnd } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Input } from "../../ui/input.tsx";
import { Label } from "../../ui/label.tsx";
import type { ChatRow } from "./chat-state.ts";
import { Counter } from "./title-dialog.tsx";
import type { CloneDraft } from "./use-chat-tools.ts";

interface CloneDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  draft: CloneDraft;
  onDraftChange: (draft: CloneDraft) => void;
  /** The loaded messages, to show which one a partial copy ends with. */
  rows: ChatRow[];
  onChooseEnd: () => void;
  onClone: (draft: CloneDraft) => Promise<string | null>;
}

const excerpt = (text: string) => {
  const flat = text
    .replace(/[*_`#>]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > 90 ? `${flat.slice(0, 90)}…` : flat || "(empty message)";
};

function ModeOption({
  checked,
  title,
  text,
  onSelect,
}: {
  checked: boolean;
  title: string;
  text: string;
  onSelect: () => void;
}) {
  return (
    <label
      className={cn(
        "flex cursor-pointer gap-3 rounded-lg border p-3 transition has-focus-visible:outline-2 has-focus-visible:outline-ring",
        checked ? "border-accent bg-accent-soft" : "border-border-strong hover:bg-surface-2",
      )}
    >
      <input
        type="radio"
        name="clone-mode"
        className="mt-1 accent-[var(--brand-accent)]"
        checked={checked}
        onChange={onSelect}
      />
      <span className="flex flex-col">
        <span className="text-sm font-medium">{title}</span>
        <span className="text-sm text-muted">{text}</span>
      </span>
    </label>
  );
}

/** Clone Conversation (§2 modals, §4 "Clone mode", §5: a title is required, at most 50 characters). */
export function CloneDialog({
  open,
  onOpenChange,
  draft,
  onDraftChange,
  rows,
  onChooseEnd,
  onClone,
}: CloneDialogProps) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const titled = draft.label.trim() !== "";
  const end = draft.upToId ? rows.find((row) => row.message.id === draft.upToId) : undefined;
  const ready = titled && (draft.mode === "full" || Boolean(draft.upToId));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || pending) return;
    setPending(true);
    setError(null);
    const failure = await onClone(draft);
    setPending(false);
    if (failure) setError(`The conversation wasn't cloned. ${failure}`);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setError(null);
        onOpenChange(next);
      }}
    >
      {open ? (
        <DialogContent
          title="Clone Conversation"
          description="Make a copy of this chat to take it somewhere else. The original stays as it is."
        >
          <form onSubmit={submit} className="flex flex-col gap-4">
            <fieldset className="flex flex-col gap-2">
              <legend className="sr-only">What to copy</legend>
              <ModeOption
                checked={draft.mode === "full"}
                title="Clone Fully"
                text="Every message of this chat."
                onSelect={() => onDraftChange({ ...draft, mode: "full" })}
              />
              <ModeOption
                checked={draft.mode === "partial"}
                title="Clone Partially"
                text="From the start up to a message you choose."
                onSelect={() => onDraftChange({ ...draft, mode: "partial" })}
              />
            </fieldset>
            {draft.mode === "partial" ? (
              <div className="flex flex-col gap-2 rounded-lg border border-border bg-bg/40 p-3">
                <p className="text-sm font-medium">Last message to include</p>
                {end ? (
                  <p className="text-sm text-muted" data-clone-end>
                    {end.message.role === "user" ? "You: " : ""}
                    {excerpt(end.message.content)}
                  </p>
                ) : (
                  <p className="text-sm text-muted">None chosen yet.</p>
                )}
                <Button variant="outline" size="sm" className="self-start" onClick={onChooseEnd}>
                  <ListEnd aria-hidden />
                  {end ? "Choose another message" : "Choose message"}
                </Button>
              </div>
            ) : null}
            <div className="flex flex-col gap-1.5">
              <div className="flex items-baseline justify-between gap-3">
                <Label htmlFor="clone-title">
                  Title{" "}
                  <span aria-hidden className="text-danger">
                    *
                  </span>
                  <span className="sr-only">(required)</span>
                </Label>
                <Counter id="clone-title-count" length={draft.label.length} max={chatLimits.title} />
              </div>
              <Input
                id="clone-title"
                value={draft.label}
                maxLength={chatLimits.title}
                required
                autoComplete="off"
                placeholder="A name for the copy"
                aria-describedby="clone-title-count"
                onChange={(event) => onDraftChange({ ...draft, label: event.target.value })}
              />
            </div>
            {error ? <Banner tone="danger">{error}</Banner> : null}
            <DialogFooter className="mt-2">
              <DialogClose asChild>
                <Button variant="outline">Cancel</Button>
              </DialogClose>
              <Button type="submit" disabled={!ready} loading={pending}>
                Clone
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
