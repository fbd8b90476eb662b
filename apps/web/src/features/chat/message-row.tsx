import { ChevronsRight, ImageIcon, RefreshCw } from "lucide-react";
import { memo } from "react";
import { Avatar } from "../../ui/avatar.tsx";
import { cn } from "../../ui/cn.ts";
import { MessageRating } from "../ratings/message-rating.tsx";
import { ListenButton } from "../voice/listen-button.tsx";
import { useWaitingGate } from "../waiting-room/use-waiting-room.ts";
import type { ChatRow } from "./chat-state.ts";
import { useRowLayout } from "./layout.ts";
import { ActionButton, Alternatives, type LastBotActions } from "./message-actions.tsx";
import { type EditKind, MessageEditor } from "./message-editor.tsx";
import { MessageImage } from "./message-image.tsx";
import { iconButton, MessageMenu } from "./message-menu.tsx";
import { MessageText } from "./message-text.tsx";
import { PickFrame, type PickMode, type PickState } from "./pick-frame.tsx";

export interface RowCharacter {
  name: string;
  avatar_url: string | null;
}

/** Edit and image-prompt edit (§4 "Message modes"), shared by every row. */
export interface MessageTools {
  /** Off while a reply is written (the server refuses edits then). */
  enabled: boolean;
  onEdit: (messageId: string, kind: EditKind) => void;
  onSave: (row: ChatRow, kind: EditKind, text: string) => void;
  onCancel: () => void;
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
  tools?: MessageTools | null;
  /** This message is being edited (its text or its image prompt). */
  editing?: EditKind | null;
  saving?: boolean;
  pickMode?: PickMode | null;
  picked?: PickState;
  onPick?: (messageId: string) => void;
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
    <div className="mb-4 flex items-center gap-3 text-xs text-muted">
      <hr className="flex-1 border-border" />
      <span className="text-center">Messages above are no longer used for generation</span>
      <hr className="flex-1 border-border" />
    </div>
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

/** One message: the bot's on the left with its avatar, the user's on the right. */
export const MessageRow = memo(function MessageRow({
  row,
  content,
  streaming,
  waiting,
  character,
  contextStart,
  lastBot: lastBotActions,
  tools,
  editing = null,
  saving = false,
  pickMode = null,
  picked = null,
  onPick,
}: MessageRowProps) {
  const message = row.message;
  const bot = message.role === "bot";
  // Waiting in line (§4 "Waiting queue"): regenerate and like are hidden, continue is off.
  const gated = useWaitingGate();
  const classic = useRowLayout() === "classic";
  const note = stateNote(row);
  const time = new Date(message.createdAt);
  const timeLabel = Number.isNaN(time.getTime()) ? undefined : time.toLocaleString();
  // On devices with hover the menu shows on hover or focus; on touch screens it stays visible.
  const reveal =
    "[@media(hover:hover)]:opacity-0 [@media(hover:hover)]:group-hover:opacity-100 " +
    "[@media(hover:hover)]:focus-within:opacity-100 [@media(hover:hover)]:has-[[data-state=open]]:opacity-100";
  const bubble = "min-w-0 rounded-2xl px-3.5 py-2.5 leading-relaxed sm:px-4";

  const stored = !row.unsent && !message.id.startsWith("local-");
  const quiet = pickMode !== null || editing !== null;
  // Nothing to act on in a pick mode or while this row is edited.
  const lastBot = quiet ? null : lastBotActions;
  const editable = Boolean(tools?.enabled) && stored && !streaming && message.state !== "streaming";
  const onEdit = editable && tools ? () => tools.onEdit(message.id, "text") : undefined;
  const onEditImagePrompt =
    editable && tools && message.image_prompt !== null ? () => tools.onEdit(message.id, "image") : undefined;
  // Rate (§2 action row, §4 "Message rating"): a finished bot reply the server has stored.
  const rateable =
    bot &&
    stored &&
    !gated &&
    !quiet &&
    !streaming &&
    message.state !== "streaming" &&
    (content !== "" || message.image_url !== null);
  const menu = (className?: string) =>
    quiet || streaming ? null : (
      <MessageMenu
        text={content}
        className={className}
        onEdit={onEdit}
        onEditImagePrompt={lastBot ? undefined : onEditImagePrompt}
        report={
          bot && stored ? { messageId: message.id, conversationId: message.conversation_id } : undefined
        }
      />
    );
  const editor =
    editing && tools ? (
      <MessageEditor
        kind={editing}
        initial={editing === "image" ? (message.image_prompt ?? "") : message.content}
        saving={saving}
        onSave={(text) => tools.onSave(row, editing, text)}
        onCancel={tools.onCancel}
      />
    ) : null;

  const body = bot ? (
    <div className="group flex gap-2.5 sm:gap-3" data-role="bot">
      <Avatar name={character.name} src={character.avatar_url} size="sm" className="mt-0.5" />
      <div className="flex min-w-0 flex-1 flex-col items-start gap-0.5">
        <div className={cn("flex max-w-full items-end gap-1", editor && "w-full")}>
          <div
            title={timeLabel}
            aria-busy={streaming || undefined}
            data-message-bubble
            className={cn(bubble, "rounded-tl-md border border-border bg-surface", editor && "w-full")}
          >
            {editor ??
              (message.image_url ? (
                <div className="flex flex-col gap-2">
                  <MessageImage message={message} busy={streaming} />
                  {content ? <MessageText text={content} streaming={streaming} /> : null}
                </div>
              ) : content === "" && streaming ? (
                <TypingDots />
              ) : content === "" ? (
                <p className="text-muted italic">No reply</p>
              ) : (
                <>
                  <MessageText text={content} streaming={streaming} />
                  {waiting ? <TypingDots className="mt-1" /> : null}
                </>
              ))}
          </div>
          {!lastBot && rateable ? (
            <MessageRating message={message} className={cn(iconButton, message.rating === null && reveal)} />
          ) : null}
          {!lastBot && rateable && content !== "" ? (
            <ListenButton messageId={message.id} className={cn(iconButton, reveal)} />
          ) : null}
          {lastBot ? null : menu(reveal)}
        </div>
        {lastBot ? (
          <div className="-ml-1.5 flex flex-wrap items-center">
            {gated ? null : (
              <ActionButton label="Regenerate" off={!lastBot.enabled} onClick={lastBot.onRegenerate}>
                <RefreshCw aria-hidden />
              </ActionButton>
            )}
            {/* A picture is made again, never continued. */}
            {message.image_prompt !== null ? null : (
              <ActionButton
                label="Continue"
                title={gated ? "Continue (after your turn in the waiting room)" : undefined}
                off={!lastBot.enabled || gated}
                onClick={lastBot.onContinue}
              >
                <ChevronsRight aria-hidden />
              </ActionButton>
            )}
            {message.image_prompt !== null && tools ? (
              <ActionButton
                label="Edit image prompt"
                off={!onEditImagePrompt}
                onClick={() => onEditImagePrompt?.()}
              >
                <ImageIcon aria-hidden />
              </ActionButton>
            ) : null}
            {rateable ? <MessageRating message={message} className={iconButton} /> : null}
            {/* A picture alone has nothing to speak. */}
            {rateable && content !== "" ? (
              <ListenButton messageId={message.id} className={iconButton} />
            ) : null}
            <Alternatives row={row} actions={lastBot} />
            {menu()}
            {note ? <span className="px-1.5 text-xs text-muted">{note}</span> : null}
          </div>
        ) : note ? (
          <span className="px-1 text-xs text-muted">{note}</span>
        ) : null}
      </div>
    </div>
  ) : (
    <div className={cn("flex flex-col gap-0.5", classic ? "items-start" : "items-end")} data-role="user">
      {classic ? <span className="px-1 text-xs font-semibold text-muted">You</span> : null}
      <div
        className={cn(
          "group flex items-end gap-1",
          classic && "flex-row-reverse",
          editor ? "w-full sm:w-[75%]" : "max-w-[85%] sm:max-w-[75%]",
        )}
      >
        {menu(reveal)}
        <div
          title={timeLabel}
          data-message-bubble
          className={cn(
            bubble,
            "rounded-tr-md bg-accent-soft",
            row.unsent && "opacity-70",
            editor && "w-full",
          )}
        >
          {editor ?? <MessageText text={content} />}
        </div>
      </div>
      {note ? (
        <span className={cn("px-1 text-xs", row.unsent ? "text-danger" : "text-muted")}>{note}</span>
      ) : null}
    </div>
  );

  return (
    <div className="mx-auto w-full max-w-[800px] px-3 pb-5 sm:px-5" data-message-id={message.id}>
      {contextStart ? <ContextDivider /> : null}
      {pickMode ? (
        <PickFrame
          messageId={message.id}
          mode={pickMode}
          picked={picked}
          onPick={stored && onPick ? onPick : null}
        >
          {body}
        </PickFrame>
      ) : (
        body
      )}
    </div>
  );
});
