import type { Conversation } from "@hearth/contract";
import { BlockCreatorDialog, UnblockCreatorDialog } from "../blocking/block-dialogs.tsx";
import { ExportChatDialog } from "../chat-transfer/export-chat-dialog.tsx";
import { ImportChatDialog } from "../chat-transfer/import-chat-dialog.tsx";
import { ConversationLorebooksDialog } from "../lorebooks/conversation-lorebooks-dialog.tsx";
import { MemoriesDialog } from "../memories/memories-dialog.tsx";
import { VoiceDialog } from "../voice/voice-dialog.tsx";
import type { ChatRow } from "./chat-state.ts";
import { CloneDialog } from "./clone-dialog.tsx";
import { GenerationSettingsDialog } from "./generation-settings-dialog.tsx";
import { ModelDialog } from "./model-dialog.tsx";
import { PersonaDialog } from "./persona-dialog.tsx";
import { TitleDialog } from "./title-dialog.tsx";
import type { ChatTools, ToolDialog } from "./use-chat-tools.ts";

/** The bot's creator, as the Block and Unblock Creator modals name them. */
const creatorOf = (conversation: Conversation) => ({
  id: conversation.character.creator_user_id,
  username: conversation.character.creator_username,
});

/** The chat menu's modals (§2), one open at a time. */
export function ChatToolDialogs({
  tools,
  conversation,
  rows,
  userId,
}: {
  tools: ChatTools;
  conversation: Conversation;
  rows: ChatRow[];
  userId: string;
}) {
  const openProps = (which: ToolDialog) => ({
    open: tools.dialog === which,
    onOpenChange: (open: boolean) => (open ? tools.openDialog(which) : tools.closeDialog()),
  });
  return (
    <>
      <TitleDialog conversation={conversation} {...openProps("title")} />
      <CloneDialog
        {...openProps("clone")}
        draft={tools.cloneDraft}
        onDraftChange={tools.setCloneDraft}
        rows={rows}
        onChooseEnd={tools.chooseCloneEnd}
        onClone={tools.submitClone}
      />
      <PersonaDialog conversation={conversation} {...openProps("persona")} />
      <ModelDialog userId={userId} {...openProps("model")} />
      <MemoriesDialog conversationId={conversation.id} {...openProps("memories")} />
      <ConversationLorebooksDialog conversationId={conversation.id} {...openProps("lorebooks")} />
      <GenerationSettingsDialog userId={userId} {...openProps("settings")} />
      <BlockCreatorDialog creator={creatorOf(conversation)} {...openProps("block")} />
      <UnblockCreatorDialog creator={creatorOf(conversation)} {...openProps("unblock")} />
      <ImportChatDialog conversation={conversation} {...openProps("importChat")} />
      <ExportChatDialog conversation={conversation} {...openProps("exportChat")} />
      <VoiceDialog conversation={conversation} {...openProps("voice")} />
    </>
  );
}

/** How many messages a pick covers: from the chosen one to the end (remove) or from the start (clone). */
export function pickCount(
  mode: "remove" | "clone",
  rows: ChatRow[],
  chosenId: string | null,
  messageCount: number,
): number {
  if (!chosenId) return 0;
  const index = rows.findIndex((row) => row.message.id === chosenId);
  if (index < 0) return 0;
  if (mode === "remove") return rows.length - index;
  // Older messages that aren't loaded are copied too.
  return Math.max(index + 1, messageCount - (rows.length - 1 - index));
}
