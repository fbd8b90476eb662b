import { useVirtualizer } from "@tanstack/react-virtual";
import { ArrowDown, History } from "lucide-react";
import { type ReactNode, type Ref, useCallback, useImperativeHandle, useLayoutEffect, useRef } from "react";
import { Avatar } from "../../ui/avatar.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { type ChatRow, liveContent, type Streaming } from "./chat-state.ts";
import { ChatLayoutContext, useChatLayout } from "./layout.ts";
import type { LastBotActions } from "./message-actions.tsx";
import type { EditKind } from "./message-editor.tsx";
import { MessageRow, type MessageTools, type RowCharacter } from "./message-row.tsx";
import type { PickMode, PickState } from "./pick-frame.tsx";

/**
 * The conversation, virtualised: only the rows near the viewport are in the DOM, so a chat with
 * thousands of loaded messages scrolls like a short one. The list is anchored to its end: while
 * the reader is at the bottom, new rows and a growing reply keep it there (in the same frame,
 * so nothing jumps); once they scroll up, nothing moves under them. Loading older messages
 * keeps the message they were reading where it was.
 */

export interface MessageListHandle {
  scrollToEnd: () => void;
}

interface MessageListProps {
  rows: ChatRow[];
  streaming: Streaming | null;
  character: RowCharacter;
  hasMore: boolean;
  loadingPrevious: boolean;
  onLoadPrevious: () => void;
  contextStartId: string | null;
  lastBotActions: LastBotActions | null;
  lastBotKey: string | null;
  handle?: Ref<MessageListHandle>;
  tools?: MessageTools | null;
  /** The message being edited, if any. */
  editing?: { messageId: string; kind: EditKind; saving: boolean } | null;
  /** A pick mode (remove messages, partial clone): rows become buttons. */
  picking?: { mode: PickMode; chosenId: string | null; onPick: (messageId: string) => void } | null;
  /** What follows a row besides the next message: an ad slot (features/ads), or nothing. */
  after?: ((index: number, row: ChatRow) => ReactNode) | null;
}

/** Remove takes the chosen message and all after it; a partial clone, it and all before it. */
function pickStateOf(mode: PickMode, index: number, chosenIndex: number): PickState {
  if (chosenIndex < 0) return null;
  if (index === chosenIndex) return "chosen";
  return (mode === "remove" ? index > chosenIndex : index < chosenIndex) ? "included" : null;
}

/** The area above the first loaded message: Load Previous Messages, or the start of history. */
const topHeight = { more: 72, start: 176 } as const;
const bottomPadding = 12;
/** Within this many pixels of the end the reader counts as "at the bottom". */
const endThreshold = 32;

function HistoryTop({
  hasMore,
  loading,
  onLoadPrevious,
  character,
}: {
  hasMore: boolean;
  loading: boolean;
  onLoadPrevious: () => void;
  character: RowCharacter;
}) {
  if (hasMore) {
    return (
      <div className="flex h-full items-center justify-center">
        <Button variant="outline" size="sm" loading={loading} onClick={onLoadPrevious}>
          {loading ? null : <History aria-hidden />}
          Load Previous Messages
        </Button>
      </div>
    );
  }
  return (
    <div className="flex h-full flex-col items-center justify-center gap-2 px-4 text-center">
      <Avatar name={character.name} src={character.avatar_url} size="lg" />
      <p className="line-clamp-1 font-semibold">{character.name}</p>
      <p className="line-clamp-2 max-w-sm text-sm text-muted">
        This is the beginning of your conversation with {character.name}.
      </p>
    </div>
  );
}

export function MessageList({
  rows,
  streaming,
  character,
  hasMore,
  loadingPrevious,
  onLoadPrevious,
  contextStartId,
  lastBotActions,
  lastBotKey,
  handle,
  tools = null,
  editing = null,
  picking = null,
  after = null,
}: MessageListProps) {
  const chosenIndex = picking?.chosenId ? rows.findIndex((row) => row.message.id === picking.chosenId) : -1;
  const scrollRef = useRef<HTMLDivElement>(null);
  const layout = useChatLayout();
  const paddingStart = hasMore ? topHeight.more : topHeight.start;

  // Stable between renders unless the rows change: the virtualizer rebuilds its layout when it does.
  const getItemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 120,
    getItemKey,
    overscan: 4,
    paddingStart,
    paddingEnd: bottomPadding,
    anchorTo: "end",
    followOnAppend: true,
    scrollEndThreshold: endThreshold,
  });

  const scrollToEnd = useCallback(() => virtualizer.scrollToEnd(), [virtualizer]);
  useImperativeHandle(handle, () => ({ scrollToEnd }), [scrollToEnd]);

  // Open at the newest message, and stay there when the list's box changes size (the window
  // resizes, a phone keyboard opens, a banner appears under it) if that is where the reader was.
  const atEnd = useRef(true);
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const onScroll = () => {
      atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight <= endThreshold;
    };
    const observer = new ResizeObserver(() => {
      if (atEnd.current) virtualizer.scrollToEnd();
    });
    virtualizer.scrollToEnd();
    element.addEventListener("scroll", onScroll, { passive: true });
    observer.observe(element);
    return () => {
      element.removeEventListener("scroll", onScroll);
      observer.disconnect();
    };
  }, [virtualizer]);

  // Older messages go in above the one being read, which stays put (the virtualizer anchors to
  // it). At the very top the anchoring is off by the rows' estimates, so step off the edge first.
  const loadPrevious = () => {
    const element = scrollRef.current;
    if (element && element.scrollTop < 1 && element.scrollHeight > element.clientHeight) {
      element.scrollTop = 1;
    }
    onLoadPrevious();
  };

  const items = virtualizer.getVirtualItems();
  const nearEnd = virtualizer.getDistanceFromEnd() <= 160;
  const hasOverflow = virtualizer.getTotalSize() > (virtualizer.scrollRect?.height ?? 0);

  return (
    <ChatLayoutContext value={layout}>
      <div className="relative min-h-0 flex-1" data-chat-layout={layout}>
        {/*
        A log, but a silent one (aria-live off): the list is virtualised, so rows enter and leave
        the DOM as the reader scrolls, and a reply being written changes with every batch of
        words; a live log would read all of that aloud. The chat screen's polite announcer says
        each finished reply (and each alternative switched to) once instead.
      */}
        <div
          ref={scrollRef}
          className="flex h-full flex-col overflow-y-auto overscroll-contain [overflow-anchor:none]"
          // Keyboard users scroll the conversation with the arrow and page keys (a scrollable
          // region must be focusable: WCAG 2.1.1).
          // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
          tabIndex={0}
          role="log"
          aria-live="off"
          aria-label="Messages"
        >
          {/* Pushes a short conversation down to the input, like a messenger. */}
          <div className="flex-1" aria-hidden />
          <div className="relative w-full shrink-0" style={{ height: virtualizer.getTotalSize() }}>
            <div className="absolute inset-x-0 top-0" style={{ height: paddingStart }}>
              <HistoryTop
                hasMore={hasMore}
                loading={loadingPrevious}
                onLoadPrevious={loadPrevious}
                character={character}
              />
            </div>
            {items.map((item) => {
              const row = rows[item.index];
              if (!row) return null;
              const isStreaming = streaming?.rowKey === row.key;
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  data-message-row
                  ref={virtualizer.measureElement}
                  className="absolute inset-x-0 top-0"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <MessageRow
                    row={row}
                    content={liveContent(row, streaming)}
                    streaming={isStreaming}
                    waiting={isStreaming && streaming?.text === ""}
                    character={character}
                    contextStart={row.message.id === contextStartId && (item.index > 0 || hasMore)}
                    lastBot={row.key === lastBotKey ? lastBotActions : null}
                    tools={tools}
                    editing={editing?.messageId === row.message.id ? editing.kind : null}
                    saving={editing?.messageId === row.message.id && editing.saving}
                    pickMode={picking?.mode ?? null}
                    picked={picking ? pickStateOf(picking.mode, item.index, chosenIndex) : null}
                    onPick={picking?.onPick}
                  />
                  {picking ? null : after?.(item.index, row)}
                </div>
              );
            })}
          </div>
        </div>
        <Button
          variant="secondary"
          size="icon"
          aria-label="Jump to the newest message"
          title="Jump to the newest message"
          onClick={scrollToEnd}
          tabIndex={nearEnd ? -1 : 0}
          className={cn(
            "absolute right-4 bottom-3 rounded-full border border-border shadow-pop transition-opacity",
            nearEnd || !hasOverflow ? "pointer-events-none opacity-0" : "opacity-100",
          )}
        >
          <ArrowDown aria-hidden />
        </Button>
      </div>
    </ChatLayoutContext>
  );
}
