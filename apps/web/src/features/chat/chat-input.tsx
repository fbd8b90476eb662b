import { chatLimits } from "@hearth/contract/labels";
import { ArrowUp, Sparkles, Square } from "lucide-react";
import { type KeyboardEvent, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from "react";
import { cn } from "../../ui/cn.ts";
import { Spinner } from "../../ui/spinner.tsx";
import { MicButton } from "../voice/mic-button.tsx";
import type { TypingState } from "./chat-state.ts";

/** The spec's chat input grows to at most this many lines, then scrolls. */
const maxLines = 10;

/**
 * Phones and tablets: Enter adds a line there (the on-screen keyboard has no Shift to hold) and
 * the send button sends.
 */
function isTouchDevice(): boolean {
  if (typeof window === "undefined" || !window.matchMedia) return false;
  if (window.matchMedia("(pointer: coarse)").matches) return true;
  return window.matchMedia("(max-width: 767px)").matches && navigator.maxTouchPoints > 0;
}

const draftKey = (conversationId: string) => `hearth.chat.draft.${conversationId}`;

function readDraft(conversationId: string): string {
  try {
    return sessionStorage.getItem(draftKey(conversationId)) ?? "";
  } catch {
    return "";
  }
}

function writeDraft(conversationId: string, text: string) {
  try {
    if (text) sessionStorage.setItem(draftKey(conversationId), text);
    else sessionStorage.removeItem(draftKey(conversationId));
  } catch {
    // Storage blocked: the draft lives only in the box.
  }
}

interface ChatInputProps {
  conversationId: string;
  characterName: string;
  typing: TypingState;
  /** Autopilot's text while it streams into the box. */
  autopilotText: string | null;
  /** Finished suggestion, or words handed back after a refused send: put them in the box. */
  fill: { key: string; text: string } | null;
  /** A limit or access error: nothing can be sent. */
  disabled: boolean;
  /**
   * Why sending is off for now though the box stays open for a draft (the waiting room): the
   * send button's title, and `describedBy` the id of the words on screen that describe it.
   */
  sendBlocked?: { reason: string; describedBy: string } | null;
  stopping: boolean;
  onSend: (text: string) => boolean;
  onStop: () => void;
  onSuggest: () => void;
  /** The Image button (§4), placed first in the bar; absent: no button. */
  imageButton?: (props: { className: string; disabled: boolean }) => ReactNode;
}

export function ChatInput({
  conversationId,
  characterName,
  typing,
  autopilotText,
  fill,
  disabled,
  sendBlocked = null,
  stopping,
  onSend,
  onStop,
  onSuggest,
  imageButton,
}: ChatInputProps) {
  const [draft, setDraft] = useState(() => readDraft(conversationId));
  const [recording, setRecording] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const autopilot = typing === "autopilot";
  const value = autopilot ? (autopilotText ?? "") : draft;
  const generating = typing !== "idle";
  const canSend = !disabled && !sendBlocked && !generating && draft.trim() !== "";

  useEffect(() => writeDraft(conversationId, draft), [conversationId, draft]);

  // A chat opens ready to type. Not on touch screens: the keyboard would cover the greeting.
  useEffect(() => {
    if (!isTouchDevice()) textarea.current?.focus({ preventScroll: true });
  }, []);

  // Words to put in the box (a suggestion, or a refused message), each once.
  const lastFill = useRef<string | null>(null);
  useEffect(() => {
    if (!fill || fill.key === lastFill.current) return;
    lastFill.current = fill.key;
    setDraft(fill.text);
    const box = textarea.current;
    if (box && !isTouchDevice()) {
      box.focus();
      requestAnimationFrame(() => box.setSelectionRange(box.value.length, box.value.length));
    }
  }, [fill]);

  // Grow with the text up to ten lines; past that the box scrolls.
  // biome-ignore lint/correctness/useExhaustiveDependencies: resized again whenever the text (value) changes
  useLayoutEffect(() => {
    const box = textarea.current;
    if (!box) return;
    const style = getComputedStyle(box);
    const line = Number.parseFloat(style.lineHeight) || 24;
    const chrome = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
    box.style.height = "auto";
    box.style.height = `${Math.min(box.scrollHeight, line * maxLines + chrome)}px`;
  }, [value]);

  const submit = () => {
    if (!canSend) return;
    if (onSend(draft)) {
      setDraft("");
      textarea.current?.focus();
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    if (isTouchDevice()) return;
    event.preventDefault();
    submit();
  };

  const iconButton =
    "inline-flex size-10 shrink-0 items-center justify-center rounded-xl transition " +
    "disabled:pointer-events-none disabled:opacity-40 [&_svg]:size-5";

  return (
    <form
      className={cn(
        "flex items-end gap-1 rounded-2xl border border-border-strong bg-surface p-1.5 shadow-card transition",
        // Focused: a 2 px line in the focus colour (border plus a 1 px ring), at least 3:1
        // against the box and the page on both themes (the accent border alone was 2.7:1).
        "focus-within:border-ring focus-within:ring-1 focus-within:ring-ring",
        disabled && "opacity-70",
      )}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {imageButton?.({ className: iconButton, disabled: disabled || Boolean(sendBlocked) || generating })}
      <button
        type="button"
        className={cn(iconButton, "text-muted hover:bg-surface-2 hover:text-accent-text")}
        aria-label="Suggest a reply"
        title="Suggest a reply"
        disabled={disabled || Boolean(sendBlocked) || generating}
        onClick={onSuggest}
      >
        <Sparkles aria-hidden />
      </button>
      <textarea
        ref={textarea}
        rows={1}
        value={value}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        readOnly={autopilot}
        disabled={disabled}
        maxLength={chatLimits.message}
        placeholder={recording ? "Say something..." : "Message..."}
        aria-label={`Message ${characterName}`}
        // Where the page's skip link lands.
        data-skip-target
        aria-busy={autopilot || undefined}
        enterKeyHint={isTouchDevice() ? "enter" : "send"}
        className={cn(
          "max-h-[50dvh] min-h-10 flex-1 resize-none bg-transparent px-1.5 py-2 text-base leading-6 text-fg outline-none",
          "placeholder:text-muted/80 disabled:cursor-not-allowed sm:text-[0.9375rem]",
          autopilot && "text-muted",
        )}
        // The ring is on the whole box (focus-within), not the bare textarea.
        style={{ outline: "none" }}
      />
      <MicButton
        className={iconButton}
        disabled={disabled || autopilot}
        onRecordingChange={setRecording}
        onFinal={(text) => setDraft((d) => (d.trim() ? `${d.trimEnd()} ${text}` : text))}
      />
      {generating ? (
        <button
          type="button"
          className={cn(iconButton, "bg-surface-2 text-fg hover:bg-border")}
          aria-label={autopilot ? "Stop suggesting" : "Stop"}
          title="Stop"
          onClick={onStop}
          disabled={stopping}
        >
          {stopping ? (
            <Spinner size="sm" label={null} />
          ) : (
            <Square aria-hidden className="fill-current !size-3.5" />
          )}
        </button>
      ) : (
        <button
          type="submit"
          className={cn(
            iconButton,
            "bg-accent text-accent-fg shadow-sm hover:brightness-110",
            "disabled:bg-surface-2 disabled:text-muted disabled:opacity-100 disabled:shadow-none",
          )}
          aria-label="Send"
          title={sendBlocked?.reason ?? "Send"}
          aria-describedby={sendBlocked?.describedBy}
          disabled={!canSend}
        >
          <ArrowUp aria-hidden />
        </button>
      )}
    </form>
  );
}
