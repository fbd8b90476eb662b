import { Check, ChevronLeft, ChevronRight, ChevronsRight, Copy, Ellipsis, RefreshCw } from "lucide-react";
import { memo, type ReactNode, useEffect, useState } from "react";
import { Avatar } from "../../ui/avatar.tsx";
import { cn } from "../../ui/cn.ts";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "../../ui/dropdown-menu.tsx";
import type { ChatRow } from "./chat-state.ts";
import { MessageText } from "./message-text.tsx";

export interface RowCharacter {
  name: string;
  avatar_url: string | null;
}

export interface LastBotActions {
  /** Generation actions are off while a reply is written or after a blocking error. */
  enabled: boolean;
  switching: boolean;
  onRegenerate: () => void;
  onContinue: () => void;
  onSelectAlternative: (row: ChatRow, index: number) => void;
}

interface MessageRowProps {
  row: ChatRow;
  /** What the bubble shows now (the streamed text for the reply being written). */
  content: string;
  streaming: boolean;
  /** Written to, but no new text yet (queued, or continue before its first token). */
  waiting: boolean;
  character: RowCharacter;
  /** The first message still sent to the model, when older ones exist above it. */
  contextStart: boolean;
  /** Regenerate, continue and alternatives: only on the last bot message. */
  lastBot: LastBotActions | null;
}

const iconButton =
  "inline-flex size-9 items-center justify-center rounded-lg text-muted transition hover:bg-surface-2 hover:text-fg " +
  "disabled:pointer-events-none disabled:opacity-40 aria-disabled:cursor-default aria-disabled:opacity-40 " +
  "aria-disabled:hover:bg-transparent aria-disabled:hover:text-muted [&_svg]:size-4";

/**
 * A button that is off while a reply is written: aria-disabled rather than disabled, so it keeps
 * the keyboard focus (a disabled button drops it) and the row doesn't change under the pointer.
 */
function ActionButton({
  label,
  title,
  off,
  onClick,
  children,
}: {
  label: string;
  title?: string;
  off: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={iconButton}
      aria-label={label}
      title={title ?? label}
      aria-disabled={off || undefined}
      onClick={off ? undefined : onClick}
    >
      {children}
    </button>
  );
}

export function TypingDots({ className }: { className?: string }) {
  return (
    <span
      aria-hidden
      data-typing-indicator
      className={cn("inline-flex items-center gap-1 py-1.5", className)}
    >
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          className="size-1.5 animate-pulse rounded-full bg-muted"
          style={{ animationDelay: `${delay}ms`, animationDuration: "1s" }}
        />
      ))}
    </span>
  );
}

function ContextDivider() {
  return (
    <div className="mb-4 flex items-center gap-3 text-xs text-muted" role="separator">
      <span className="h-px flex-1 bg-border" />
      <span className="text-center">Messages above are no longer used for generation</span>
      <span className="h-px flex-1 bg-border" />
    </div>
  );
}

/** Copy, with a 2-second confirmation; later entries (edit, report) join it here. */
function MessageMenu({ text, className }: { text: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      // Clipboard blocked (insecure origin): nothing to confirm.
    }
  };

  return (
    <span className={cn("inline-flex items-center", className)}>
      <DropdownMenu>
        <DropdownMenuTrigger
          className={cn(iconButton, "data-[state=open]:bg-surface-2")}
          aria-label="Message actions"
        >
          {copied ? <Check aria-hidden className="text-success" /> : <Ellipsis aria-hidden />}
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="min-w-40">
          <DropdownMenuItem onSelect={() => void copy()}>
            <Copy aria-hidden />
            Copy
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <span role="status" className={cn("text-xs text-success", copied ? "pr-1" : "sr-only")}>
        {copied ? "Copied" : ""}
      </span>
    </span>
  );
}

function stateNote(row: ChatRow): string | null {
  if (row.unsent) return "Not sent";
  switch (row.message.state) {
    case "stopped":
      return "Stopped";
    case "interrupted":
      return "Cut off";
    case "failed":
      return "Failed";
    default:
      return null;
  }
}

function Alternatives({ row, actions }: { row: ChatRow; actions: LastBotActions }) {
  const { alternative_index: index, alternative_count: count } = row.message;
  if (count < 2) return null;
  const off = !actions.enabled || actions.switching;
  return (
    <span className="inline-flex items-center">
      <ActionButton
        label="Previous alternative"
        title="Previous alternative (←)"
        off={off || index === 0}
        onClick={() => actions.onSelectAlternative(row, index - 1)}
      >
        <ChevronLeft aria-hidden />
      </ActionButton>
      <span
        className="min-w-8 text-center text-xs tabular-nums text-muted"
        aria-label={`Alternative ${index + 1} of ${count}`}
        data-alternative-counter
      >
        {index + 1}/{count}
      </span>
      <ActionButton
        label="Next alternative"
        title="Next alternative (→)"
        off={off || index >= count - 1}
        onClick={() => actions.onSelectAlternative(row, index + 1)}
      >
        <ChevronRight aria-hidden />
      </ActionButton>
    </span>
  );
}

/** One message: the bot's on the left with its avatar, the user's on the right. */
export const MessageRow = memo(function MessageRow({
  row,
  content,
  streaming,
  waiting,
  character,
  contextStart,
  lastBot,
}: MessageRowProps) {
  const bot = row.message.role === "bot";
  const note = stateNote(row);
  const time = new Date(row.message.createdAt);
  const timeLabel = Number.isNaN(time.getTime()) ? undefined : time.toLocaleString();
  // On devices with hover the menu shows on hover or focus; on touch screens it stays visible.
  const reveal =
    "[@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-hover:opacity-100 " +
    "[@media(hover:hover)]:focus-within:opacity-100 [@media(hover:hover)]:has-[[data-state=open]]:opacity-100";
  const bubble = "min-w-0 rounded-2xl px-3.5 py-2.5 leading-relaxed sm:px-4";

  return (
    <div className="mx-auto w-full max-w-[800px] px-3 pb-5 sm:px-5" data-message-id={row.message.id}>
      {contextStart ? <ContextDivider /> : null}
      {bot ? (
        <div className="group flex gap-2.5 sm:gap-3" data-role="bot">
          <Avatar name={character.name} src={character.avatar_url} size="sm" className="mt-0.5" />
          <div className="flex min-w-0 flex-1 flex-col items-start gap-0.5">
            <div className="flex max-w-full items-end gap-1">
              <div
                title={timeLabel}
                aria-busy={streaming || undefined}
                data-message-bubble
                className={cn(bubble, "rounded-tl-md border border-border bg-surface")}
              >
                {content === "" && streaming ? (
                  <TypingDots />
                ) : content === "" ? (
                  <p className="text-muted italic">No reply</p>
                ) : (
                  <>
                    <MessageText text={content} streaming={streaming} />
                    {waiting ? <TypingDots className="mt-1" /> : null}
                  </>
                )}
              </div>
              {lastBot || streaming ? null : <MessageMenu text={content} className={reveal} />}
            </div>
            {lastBot ? (
              <div className="-ml-1.5 flex flex-wrap items-center">
                <ActionButton label="Regenerate" off={!lastBot.enabled} onClick={lastBot.onRegenerate}>
                  <RefreshCw aria-hidden />
                </ActionButton>
                <ActionButton label="Continue" off={!lastBot.enabled} onClick={lastBot.onContinue}>
                  <ChevronsRight aria-hidden />
                </ActionButton>
                <Alternatives row={row} actions={lastBot} />
                {streaming ? null : <MessageMenu text={content} />}
                {note ? <span className="px-1.5 text-xs text-muted">{note}</span> : null}
              </div>
            ) : note ? (
              <span className="px-1 text-xs text-muted">{note}</span>
            ) : null}
          </div>
        </div>
      ) : (
        <div className="flex flex-col items-end gap-0.5" data-role="user">
          <div className="group flex max-w-[85%] items-end gap-1 sm:max-w-[75%]">
            <MessageMenu text={content} className={reveal} />
            <div
              title={timeLabel}
              data-message-bubble
              className={cn(bubble, "rounded-tr-md bg-accent-soft", row.unsent && "opacity-70")}
            >
              <MessageText text={content} />
            </div>
          </div>
          {note ? (
            <span className={cn("px-1 text-xs", row.unsent ? "text-danger" : "text-muted")}>{note}</span>
          ) : null}
        </div>
      )}
    </div>
  );
});
