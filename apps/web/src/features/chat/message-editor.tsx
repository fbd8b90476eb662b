import { IMAGE_PROMPT_MAX } from "@hearth/contract";
import { chatLimits } from "@hearth/contract/labels";
import { Check, X } from "lucide-react";
import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { Button } from "../../ui/button.tsx";

/** The edit box grows to at most this many lines, then scrolls (chat-and-characters §5, §9). */
const maxLines = 15;

export type EditKind = "text" | "image";

interface MessageEditorProps {
  kind: EditKind;
  initial: string;
  saving: boolean;
  onSave: (text: string) => void;
  onCancel: () => void;
}

/**
 * A message turned into a text box (the text edit and image-prompt edit modes of §4). Save shows
 * only when the text is non-empty after trimming and differs from what it was; Esc cancels.
 */
export function MessageEditor({ kind, initial, saving, onSave, onCancel }: MessageEditorProps) {
  const [text, setText] = useState(initial);
  const box = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  const trimmed = text.trim();
  const canSave = trimmed !== "" && trimmed !== initial.trim();

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    element.focus({ preventScroll: true });
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: resized again whenever the text changes
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const style = getComputedStyle(element);
    const line = Number.parseFloat(style.lineHeight) || 24;
    const chrome = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, line * maxLines + chrome)}px`;
  }, [text]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && canSave && !saving) {
      event.preventDefault();
      onSave(trimmed);
    }
  };

  return (
    <form
      className="flex w-full flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSave && !saving) onSave(trimmed);
      }}
    >
      <textarea
        ref={box}
        value={text}
        rows={1}
        maxLength={kind === "text" ? chatLimits.message : IMAGE_PROMPT_MAX}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        disabled={saving}
        aria-label={kind === "text" ? "Edit message" : "Edit image prompt"}
        aria-describedby={hintId}
        data-message-editor
        className="min-h-10 w-full resize-none overflow-y-auto rounded-lg border border-border-strong bg-bg px-3 py-2 text-base leading-6 text-fg focus-visible:border-accent sm:text-[0.9375rem]"
      />
      <div className="flex flex-wrap items-center justify-end gap-2">
        <span id={hintId} className="mr-auto text-xs text-muted">
          {kind === "image" ? "Saving makes a new image. " : ""}Esc to cancel
        </span>
        <Button type="button" variant="ghost" size="sm" onClick={onCancel} disabled={saving}>
          <X aria-hidden />
          Cancel
        </Button>
        {canSave ? (
          <Button type="submit" size="sm" loading={saving}>
            {saving ? null : <Check aria-hidden />}
            Save
          </Button>
        ) : null}
      </div>
    </form>
  );
}
