import type { Memory } from "@hearth/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Check, Pencil, Pin, Sparkles, Trash2, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { deleteMemory, updateMemory } from "./api.ts";
import { MemoryField, memoryTextOk } from "./memory-field.tsx";

type Mode = "view" | "edit" | "confirm-delete";

/**
 * One memory in Manage Memories: its text, an Automatic badge for the model's own, a pin toggle,
 * Edit (inline, same 250 limit) and Delete (a second, explicit button confirms). Focus stays
 * on the control that was used, or moves to the list (`onGone`) when the memory is deleted.
 */
export function MemoryItem({ memory, onGone }: { memory: Memory; onGone: () => void }) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<Mode>("view");
  const [draft, setDraft] = useState(memory.content);
  const [busy, setBusy] = useState<"pin" | "save" | "delete" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const textId = useId();
  const pinButton = useRef<HTMLButtonElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const editBox = useRef<HTMLTextAreaElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  // Where focus goes once the mode has changed (the element is only there after the render).
  const focusNext = useRef<"edit-button" | "edit-box" | "keep" | null>(null);

  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    if (target === "edit-button") editButton.current?.focus();
    else if (target === "keep") keepButton.current?.focus();
    else if (target === "edit-box") {
      const box = editBox.current;
      box?.focus();
      box?.setSelectionRange(box.value.length, box.value.length);
    }
  });

  const switchTo = (next: Mode, focus: typeof focusNext.current) => {
    focusNext.current = focus;
    setError(null);
    setMode(next);
  };

  const togglePin = async () => {
    if (busy) return;
    setBusy("pin");
    setError(null);
    try {
      await updateMemory(queryClient, memory, { pinned: !memory.pinned });
      // The list reorders (pinned first); moving the row can drop the focus from its button.
      if (!document.activeElement || document.activeElement === document.body) pinButton.current?.focus();
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(null);
    }
  };

  const save = async () => {
    if (busy || !memoryTextOk(draft)) return;
    if (draft.trim() === memory.content) {
      switchTo("view", "edit-button");
      return;
    }
    setBusy("save");
    setError(null);
    try {
      await updateMemory(queryClient, memory, { content: draft.trim() });
      switchTo("view", "edit-button");
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    if (busy) return;
    setBusy("delete");
    setError(null);
    try {
      await deleteMemory(queryClient, memory);
      onGone();
    } catch (cause) {
      setError(errorMessage(cause));
      setBusy(null);
    }
  };

  const automatic = memory.source === "auto";
  return (
    <li
      className={cn(
        "flex flex-col gap-2 rounded-lg border bg-surface p-3",
        memory.pinned ? "border-accent/60" : "border-border",
      )}
      data-memory-id={memory.id}
      aria-busy={busy !== null || undefined}
    >
      {mode === "edit" ? (
        <form
          className="flex flex-col gap-2"
          data-escape-local
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <MemoryField
            ref={editBox}
            id={`${textId}-edit`}
            label="Edit memory"
            value={draft}
            onChange={setDraft}
            onSubmit={() => void save()}
            onCancel={() => switchTo("view", "edit-button")}
            disabled={busy === "save"}
            error={error}
          />
          <div className="flex flex-wrap justify-end gap-2">
            <Button
              variant="ghost"
              size="sm"
              disabled={busy === "save"}
              onClick={() => switchTo("view", "edit-button")}
            >
              <X aria-hidden />
              Cancel
            </Button>
            <Button type="submit" size="sm" disabled={!memoryTextOk(draft)} loading={busy === "save"}>
              {busy === "save" ? null : <Check aria-hidden />}
              Save
            </Button>
          </div>
        </form>
      ) : (
        <>
          <div className="flex items-start gap-2">
            <p id={textId} className="min-w-0 flex-1 text-sm leading-relaxed break-words whitespace-pre-wrap">
              {memory.content}
            </p>
            <Button
              ref={pinButton}
              variant="ghost"
              size="sm"
              className={cn("-mt-1 -mr-1 size-9 px-0", memory.pinned && "text-accent-text")}
              aria-pressed={memory.pinned}
              aria-label={memory.pinned ? "Unpin memory" : "Pin memory"}
              aria-describedby={textId}
              aria-disabled={busy === "pin" || undefined}
              title={memory.pinned ? "Pinned: always reaches the character" : "Pin: always send this memory"}
              onClick={() => void togglePin()}
            >
              <Pin aria-hidden className={cn(memory.pinned && "fill-current")} />
            </Button>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {memory.pinned ? (
              <Badge tone="accent">
                <Pin aria-hidden className="size-3" />
                Pinned
              </Badge>
            ) : null}
            {automatic ? (
              <Badge tone="info" title="Written by the model from your messages">
                <Sparkles aria-hidden className="size-3" />
                Automatic
              </Badge>
            ) : null}
            {mode === "confirm-delete" ? (
              // biome-ignore lint/a11y/noStaticElementInteractions: Escape from either button means Keep
              <span
                className="ml-auto flex flex-wrap items-center justify-end gap-2"
                data-delete-confirm
                data-escape-local
                onKeyDown={(event) => {
                  if (event.key !== "Escape" || busy === "delete") return;
                  event.preventDefault();
                  switchTo("view", "edit-button");
                }}
              >
                <span className="text-sm font-medium">Delete this memory?</span>
                <Button
                  ref={keepButton}
                  variant="ghost"
                  size="sm"
                  disabled={busy === "delete"}
                  onClick={() => switchTo("view", "edit-button")}
                >
                  Keep
                </Button>
                <Button
                  variant="danger"
                  size="sm"
                  aria-describedby={textId}
                  loading={busy === "delete"}
                  onClick={() => void remove()}
                >
                  Delete
                </Button>
              </span>
            ) : (
              <span className="ml-auto flex gap-1">
                <Button
                  ref={editButton}
                  variant="ghost"
                  size="sm"
                  aria-describedby={textId}
                  onClick={() => {
                    setDraft(memory.content);
                    switchTo("edit", "edit-box");
                  }}
                >
                  <Pencil aria-hidden />
                  Edit
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-danger"
                  aria-describedby={textId}
                  onClick={() => switchTo("confirm-delete", "keep")}
                >
                  <Trash2 aria-hidden />
                  Delete
                </Button>
              </span>
            )}
          </div>
          {error ? (
            <p className="text-sm text-danger" role="alert">
              {error}
            </p>
          ) : null}
        </>
      )}
    </li>
  );
}
