import type { Conversation } from "@hearth/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useCallback, useMemo, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { chatKeys, cloneConversation, editMessage, removeMessagesFrom } from "./api.ts";
import type { ChatRow } from "./chat-state.ts";
import type { EditKind } from "./message-editor.tsx";
import type { MessageTools } from "./message-row.tsx";
import type { PickMode } from "./pick-frame.tsx";
import type { useChat } from "./use-chat.ts";

/**
 * The chat tools of chat-and-characters §2 and §4 around one conversation: message edit modes,
 * the remove-messages and clone pick modes, and which of the menu's modals is open.
 */

export type ToolDialog =
  | "title"
  | "clone"
  | "settings"
  | "model"
  | "persona"
  | "block"
  | "unblock"
  | "memories"
  | "lorebooks"
  | "importChat"
  | "exportChat"
  | "voice";

export interface CloneDraft {
  mode: "full" | "partial";
  label: string;
  /** The last message to include (partial). */
  upToId: string | null;
}

type Chat = ReturnType<typeof useChat>;

export function useChatTools(conversation: Conversation, chat: Chat, idle: boolean) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<ToolDialog | null>(null);
  const [pick, setPick] = useState<{ mode: PickMode; chosenId: string | null } | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [pickBusy, setPickBusy] = useState(false);
  const [editing, setEditing] = useState<{ messageId: string; kind: EditKind; saving: boolean } | null>(null);
  const [cloneDraft, setCloneDraft] = useState<CloneDraft>({ mode: "full", label: "", upToId: null });
  const { replaceMessage, showError, reload, remakeImage } = chat;
  const conversationRef = useRef(conversation);
  conversationRef.current = conversation;

  const refreshLists = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: chatKeys.list });
    void queryClient.invalidateQueries({
      queryKey: chatKeys.byCharacter(conversationRef.current.character_id),
    });
  }, [queryClient]);

  // --- Edit modes -------------------------------------------------------------------------

  const saveEdit = useCallback(
    async (row: ChatRow, kind: EditKind, text: string) => {
      const before = row.message;
      if (kind === "text") {
        // Shown at once; the old text comes back if the server refuses (§4).
        setEditing(null);
        replaceMessage({ ...before, content: text });
        try {
          replaceMessage(await editMessage(before.id, { content: text }));
          refreshLists();
        } catch (error) {
          replaceMessage(before);
          showError(`Your edit wasn't saved. ${errorMessage(error)}`);
        }
        return;
      }
      setEditing({ messageId: before.id, kind, saving: true });
      try {
        replaceMessage(await editMessage(before.id, { image_prompt: text }));
        setEditing(null);
      } catch (error) {
        setEditing({ messageId: before.id, kind, saving: false });
        showError(`The image prompt wasn't saved. ${errorMessage(error)}`);
        return;
      }
      // A new prompt makes a new image, on its row (refusals show as the chat's dismissible banner).
      remakeImage(before.id);
    },
    [replaceMessage, showError, remakeImage, refreshLists],
  );

  const messageTools = useMemo<MessageTools>(
    () => ({
      enabled: idle && pick === null,
      onEdit: (messageId, kind) => setEditing({ messageId, kind, saving: false }),
      onSave: (row, kind, text) => void saveEdit(row, kind, text),
      onCancel: () => setEditing(null),
    }),
    [idle, pick, saveEdit],
  );

  // --- Pick modes: remove messages, partial clone ---------------------------------------------

  const startRemove = () => {
    setEditing(null);
    setPickError(null);
    setPick({ mode: "remove", chosenId: null });
  };

  const onPick = useCallback(
    (messageId: string) => setPick((current) => (current ? { ...current, chosenId: messageId } : current)),
    [],
  );

  const cancelPick = () => {
    const mode = pick?.mode;
    setPick(null);
    setPickError(null);
    // Back to the clone modal the pick came from.
    if (mode === "clone") setDialog("clone");
  };

  const confirmPick = async () => {
    if (!pick?.chosenId) return;
    if (pick.mode === "clone") {
      setCloneDraft((draft) => ({ ...draft, mode: "partial", upToId: pick.chosenId }));
      setPick(null);
      setDialog("clone");
      return;
    }
    setPickBusy(true);
    setPickError(null);
    try {
      const removed = await removeMessagesFrom(conversationRef.current.id, pick.chosenId);
      queryClient.setQueryData<Conversation>(chatKeys.detail(conversationRef.current.id), (current) =>
        current ? { ...current, ...removed.conversation } : removed.conversation,
      );
      await reload();
      refreshLists();
      setPick(null);
    } catch (error) {
      setPickError(`The messages weren't removed. ${errorMessage(error)}`);
    } finally {
      setPickBusy(false);
    }
  };

  // --- Clone ----------------------------------------------------------------------------------

  const chooseCloneEnd = () => {
    setDialog(null);
    setPickError(null);
    setPick({ mode: "clone", chosenId: cloneDraft.upToId });
  };

  /** Resolves with an error message, or navigates to the new conversation. */
  const submitClone = async (draft: CloneDraft): Promise<string | null> => {
    try {
      const { conversation: copy } = await cloneConversation(conversationRef.current.id, {
        label: draft.label.trim(),
        mode: draft.mode,
        ...(draft.mode === "partial" && draft.upToId ? { up_to_message_id: draft.upToId } : {}),
      });
      queryClient.setQueryData(chatKeys.detail(copy.id), copy);
      refreshLists();
      setDialog(null);
      setCloneDraft({ mode: "full", label: "", upToId: null });
      await navigate({
        to: `/chat/${encodeURIComponent(copy.character_id)}/${encodeURIComponent(copy.id)}`,
      });
      return null;
    } catch (error) {
      return errorMessage(error);
    }
  };

  const openDialog = (which: ToolDialog) => {
    setEditing(null);
    setDialog(which);
  };

  return {
    dialog,
    openDialog,
    closeDialog: () => setDialog(null),
    pick,
    pickError,
    pickBusy,
    startRemove,
    onPick,
    cancelPick,
    confirmPick: () => void confirmPick(),
    editing,
    messageTools,
    cloneDraft,
    setCloneDraft,
    chooseCloneEnd,
    submitClone,
  };
}

export type ChatTools = ReturnType<typeof useChatTools>;
