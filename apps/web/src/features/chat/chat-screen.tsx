import type { Conversation, MessagePage } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useEffect, useMemo, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { pageTitle } from "../../lib/brand.ts";
import { useAppConfig, useMe } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { useChatUiEvents } from "../ads/chat-events.ts";
import { useChatAds } from "../ads/use-chat-ads.tsx";
import { UnblockFromChat } from "../blocking/unblock-from-chat.tsx";
import { canManageMemories } from "../memories/api.ts";
import { useRecheckOnRefusal, useWaitingRoom, WaitingGateContext } from "../waiting-room/use-waiting-room.ts";
import {
  ExpiredNotice,
  WaitingRoomBanner,
  waitingReasonId,
  waitingSendReason,
} from "../waiting-room/waiting-room-banner.tsx";
import { chatKeys, conversationQuery, createConversation, newestMessagesQuery } from "./api.ts";
import { ChatAnnouncer } from "./chat-announcer.tsx";
import { ChatFrame, ChatLoadError } from "./chat-frame.tsx";
import { ChatHeader } from "./chat-header.tsx";
import { ChatInput } from "./chat-input.tsx";
import { ChatMenuTools } from "./chat-menu.tsx";
import {
  ActionErrorBanner,
  DemoModelNotice,
  GenerationErrorBanner,
  LimitBanner,
  ReplyLineBanner,
  ReplyNotice,
  TooLongBanner,
} from "./chat-notices.tsx";
import { lastBotRow, type TypingState } from "./chat-state.ts";
import { ChatToolDialogs, pickCount } from "./chat-tool-dialogs.tsx";
import { ImageButton } from "./image-button.tsx";
import type { LastBotActions } from "./message-actions.tsx";
import { MessageList, type MessageListHandle } from "./message-list.tsx";
import { PickBar } from "./pick-bar.tsx";
import { canTuneGeneration, generationExtras } from "./preferences.ts";
import { useAlternativeKeys } from "./use-alternative-keys.ts";
import { useChat } from "./use-chat.ts";
import { useChatTools } from "./use-chat-tools.ts";
import { useChosenModel } from "./use-chosen-model.ts";

/** /chat/{characterId}/{conversationId}: loads the conversation and its newest page. */
export function ChatScreen({ conversationId }: { conversationId: string }) {
  const queryClient = useQueryClient();
  const conversation = useQuery(conversationQuery(conversationId));
  const page = useQuery(newestMessagesQuery(conversationId));

  // The newest page is copied into the screen's state once; a later visit must read it fresh.
  useEffect(
    () => () => queryClient.removeQueries({ queryKey: chatKeys.newestPage(conversationId), exact: true }),
    [queryClient, conversationId],
  );

  const error = conversation.error ?? page.error;
  return (
    <ChatFrame>
      {error ? (
        <ChatLoadError
          error={error}
          onRetry={() => {
            void conversation.refetch();
            void page.refetch();
          }}
        />
      ) : conversation.data && page.data ? (
        <ChatSession conversation={conversation.data} page={page.data} />
      ) : (
        <PageSpinner label="Opening chat" />
      )}
    </ChatFrame>
  );
}

function ChatSession({ conversation, page }: { conversation: Conversation; page: MessagePage }) {
  const me = useMe();
  const config = useAppConfig();
  const { brand } = config;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const userId = me?.id ?? "signed-out";
  const chat = useChat(conversation, page, () => generationExtras(userId, me, config));
  const { state } = chat;
  const character = conversation.character;
  const list = useRef<MessageListHandle>(null);
  // Waiting without a bypass: send is off and regenerate, report and like are hidden (§4).
  const waiting = useWaitingRoom(character.id, conversation.id, state.streaming ? null : state.rows.length);
  const gated = waiting.gated;
  const ads = useChatAds(conversation, state.rows, state.hasMore, state.streaming);
  useChatUiEvents(conversation, state);

  useEffect(() => {
    document.title = pageTitle(character.name, brand.name);
  }, [character.name, brand.name]);

  const { selectedModel, demoNotice, hideDemoNotice } = useChosenModel(userId);

  const streaming = state.streaming;
  // Autopilot writes into the input box: a stream with no row in the list (a resumed one
  // learns that from its `started` event).
  const autopilot =
    streaming?.action === "autopilot" ||
    (streaming?.generationId && !streaming.rowKey && !streaming.placeholder);
  const typing: TypingState = streaming ? (autopilot ? "autopilot" : "bot") : "idle";
  const problem = state.problem;
  const blocked = problem?.kind === "access" || problem?.kind === "limit";
  const lastBot = lastBotRow(state.rows);
  const idle = typing === "idle" && !blocked;
  const tools = useChatTools(conversation, chat, idle);
  const member = Boolean(me && !me.is_guest);
  const picking = tools.pick !== null;

  const { regenerate, continueReply, selectAlternative, switching } = chat;
  const lastBotActions = useMemo<LastBotActions>(
    () => ({
      enabled: typing === "idle" && !blocked,
      switching,
      onRegenerate: regenerate,
      onContinue: continueReply,
      onSelectAlternative: (row, index) => void selectAlternative(row, index),
    }),
    [typing, blocked, switching, regenerate, continueReply, selectAlternative],
  );
  const rowCharacter = useMemo(
    () => ({ name: character.name, avatar_url: character.avatar_url }),
    [character.name, character.avatar_url],
  );

  useAlternativeKeys(lastBot, typing === "idle" && !blocked && !picking, selectAlternative);

  const [startingNew, setStartingNew] = useState(false);
  const startNew = async () => {
    setStartingNew(true);
    try {
      const created = await createConversation(queryClient, character.id);
      await navigate({
        to: `/chat/${encodeURIComponent(character.id)}/${encodeURIComponent(created.conversation.id)}`,
      });
    } catch (error) {
      setStartingNew(false);
      chat.showError(`Couldn't start a new chat. ${errorMessage(error)}`);
    }
  };

  const fill = useMemo(() => {
    const suggestion = state.suggestion;
    const restored = state.restoredDraft;
    if (restored && (!suggestion || restored.id >= suggestion.id))
      return { key: `r${restored.id}`, text: restored.text };
    return suggestion ? { key: `s${suggestion.id}`, text: suggestion.text } : null;
  }, [state.suggestion, state.restoredDraft]);

  useRecheckOnRefusal(waiting, problem?.kind === "waiting", chat.dismissProblem);

  const send = (text: string) => {
    if (gated) return false;
    const accepted = chat.send(text);
    if (accepted) requestAnimationFrame(() => list.current?.scrollToEnd());
    return accepted;
  };

  return (
    <WaitingGateContext value={gated}>
      <ChatHeader
        character={character}
        canViewSaved={!me?.is_guest}
        startingNew={startingNew}
        onStartNew={() => void startNew()}
        title={conversation.label}
        tools={
          <ChatMenuTools
            conversation={conversation}
            access={{
              personas: member && Boolean(me?.permissions.includes("personas")),
              generationSettings: canTuneGeneration(me, config),
              memories: canManageMemories(me, config),
              creator: me?.id === character.creator_user_id,
              member,
            }}
            idle={idle && tools.pick === null}
            onOpen={tools.openDialog}
            onRemove={tools.startRemove}
          />
        }
      />
      <MessageList
        handle={list}
        rows={state.rows}
        streaming={streaming}
        character={rowCharacter}
        hasMore={state.hasMore}
        loadingPrevious={chat.loadingPrevious}
        onLoadPrevious={() => void chat.loadPrevious()}
        contextStartId={state.contextStartId}
        lastBotActions={lastBotActions}
        lastBotKey={lastBot?.key ?? null}
        tools={tools.messageTools}
        editing={tools.editing}
        picking={tools.pick ? { ...tools.pick, onPick: tools.onPick } : null}
        after={ads}
      />
      <div className="mx-auto flex w-full max-w-[800px] shrink-0 flex-col gap-2 px-3 pt-1 pb-[max(0.5rem,env(safe-area-inset-bottom))] sm:px-5">
        <ChatAnnouncer typing={typing} announcement={state.announcement} characterName={character.name} />
        {demoNotice ? <DemoModelNotice onDismiss={hideDemoNotice} /> : null}
        {streaming?.reconnecting ? (
          <p role="status" className="text-center text-xs text-muted">
            Connection lost. Reconnecting…
          </p>
        ) : null}
        {streaming?.queue ? (
          <ReplyLineBanner position={streaming.queue.position} timeLeftS={streaming.queue.timeLeftS} />
        ) : null}
        {problem?.kind === "generation" ? (
          <GenerationErrorBanner
            detail={problem.detail}
            problemId={problem.id}
            onResubmit={chat.resubmit}
            onDismiss={chat.dismissProblem}
          />
        ) : null}
        {problem?.kind === "limit" ? <LimitBanner me={me} detail={problem.detail} /> : null}
        {problem?.kind === "tooLong" ? (
          <TooLongBanner detail={problem.detail} model={selectedModel} onDismiss={chat.dismissProblem} />
        ) : null}
        {waiting.expired ? <ExpiredNotice onDismiss={waiting.dismissExpired} /> : null}
        {gated ? <WaitingRoomBanner view={waiting} skips={waiting.skips} /> : null}
        {problem?.kind === "waiting" && !gated ? (
          <ActionErrorBanner message={problem.detail} onDismiss={chat.dismissProblem} />
        ) : null}
        {problem?.kind === "refused" ? (
          <ActionErrorBanner message={problem.detail} onDismiss={chat.dismissProblem} />
        ) : null}
        {state.notice ? (
          <ReplyNotice
            notice={state.notice}
            characterName={character.name}
            model={selectedModel}
            onDismiss={chat.dismissNotice}
          />
        ) : null}
        {problem?.kind === "access" ? (
          <Banner
            tone="danger"
            action={
              problem.code === "blockedBotCreator" && member ? (
                // The chat's state holds the refusal: a fresh load is the simple way back in.
                <UnblockFromChat characterId={character.id} onUnblocked={() => window.location.reload()} />
              ) : null
            }
          >
            {problem.code === "blockedBotCreator"
              ? "You have blocked the creator of this character. Please unblock creator to use this character."
              : "You are not allowed to chat with this character. It's either private or deleted."}
          </Banner>
        ) : null}
        {chat.actionError ? (
          <ActionErrorBanner message={chat.actionError} onDismiss={chat.clearActionError} />
        ) : null}
        {tools.pick ? (
          <PickBar
            mode={tools.pick.mode}
            count={pickCount(tools.pick.mode, state.rows, tools.pick.chosenId, conversation.message_count)}
            busy={tools.pickBusy}
            error={tools.pickError}
            onCancel={tools.cancelPick}
            onConfirm={tools.confirmPick}
          />
        ) : (
          <ChatInput
            conversationId={conversation.id}
            characterName={character.name}
            typing={typing}
            autopilotText={typing === "autopilot" ? (streaming?.text ?? "") : null}
            fill={fill}
            disabled={blocked}
            sendBlocked={gated ? { reason: waitingSendReason, describedBy: waitingReasonId } : null}
            stopping={streaming?.stopping ?? false}
            onSend={send}
            onStop={chat.stop}
            onSuggest={chat.suggest}
            imageButton={(props) => (
              <ImageButton {...props} me={me} characterId={character.id} onImage={chat.makeImage} />
            )}
          />
        )}
        <p className="text-center text-xs text-muted">
          <span className="hidden lg:inline">
            All conversations are fictional AI storytelling for entertainment.
          </span>
          <span className="lg:hidden">All chats are fictional AI stories.</span>
        </p>
      </div>
      <ChatToolDialogs tools={tools} conversation={conversation} rows={state.rows} userId={userId} />
    </WaitingGateContext>
  );
}
