import type { ChatImportReport, Conversation } from "@hearth/contract";
import { CHAT_IMPORT_MAX_BYTES } from "@hearth/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { FileUp } from "lucide-react";
import { useId, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { FilePickerButton, UploadProgress } from "../../ui/file-upload.tsx";
import { chatKeys } from "../chat/api.ts";
import { importChat } from "./api.ts";

const accepted = ".jsonl,.json,application/json,application/jsonl,text/plain";
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** What the import kept and what it left out, in words. */
function ImportSummary({ report, characterName }: { report: ChatImportReport; characterName: string }) {
  const kept = [
    plural(report.messages, "message"),
    plural(report.alternatives, "alternative"),
    ...(report.memories ? [plural(report.memories, "memory", "memories")] : []),
    ...(report.lorebooks ? [plural(report.lorebooks, "lorebook")] : []),
  ];
  const left = [
    ...(report.skipped_system_messages ? [plural(report.skipped_system_messages, "system message")] : []),
    ...(report.skipped_empty_messages ? [plural(report.skipped_empty_messages, "empty message")] : []),
    ...(report.skipped_alternatives ? [plural(report.skipped_alternatives, "alternative")] : []),
    ...(report.lorebooks_not_found
      ? [`${plural(report.lorebooks_not_found, "lorebook")} that aren't yours`]
      : []),
  ];
  return (
    <section aria-label="Import report" className="flex flex-col gap-2 text-sm">
      <p>
        <span className="font-medium">Imported:</span> {kept.join(", ")}.
      </p>
      {report.user_name_from && report.user_name_from !== report.user_name_to ? (
        <p>
          “{report.user_name_from}” is now {report.user_name_to}
          {report.user_names_replaced ? ` (${plural(report.user_names_replaced, "mention")} changed)` : ""}.
        </p>
      ) : null}
      {report.other_speakers.length ? (
        <p>
          Messages of {report.other_speakers.join(", ")} are now {characterName}'s.
        </p>
      ) : null}
      {left.length ? (
        <p>
          <span className="font-medium">Left out:</span> {left.join(", ")}.
        </p>
      ) : null}
      {report.dropped_metadata_keys.length ? (
        <p className="text-muted">
          Settings Hearth doesn't keep:{" "}
          <span className="break-all">{report.dropped_metadata_keys.join(", ")}</span>
        </p>
      ) : null}
    </section>
  );
}

function ImportForm({ conversation, onDone }: { conversation: Conversation; onDone: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const inputId = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [report, setReport] = useState<ChatImportReport | null>(null);

  const upload = async (file: File) => {
    setFileName(file.name);
    setError(null);
    setReport(null);
    if (file.size > CHAT_IMPORT_MAX_BYTES) {
      setError(`The file is larger than ${CHAT_IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
      return;
    }
    setProgress(0);
    try {
      const done = await importChat(
        file,
        { characterId: conversation.character_id, personaId: conversation.user_persona_id },
        (p) => setProgress(p.fraction ?? Number.NaN),
      );
      setReport(done);
      void queryClient.invalidateQueries({ queryKey: chatKeys.list });
      void queryClient.invalidateQueries({ queryKey: chatKeys.byCharacter(conversation.character_id) });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setProgress(null);
    }
  };

  const busy = progress !== null;
  const open = async () => {
    if (!report) return;
    onDone();
    await navigate({
      to: `/chat/${encodeURIComponent(report.character_id)}/${encodeURIComponent(report.conversation_id)}`,
    });
  };

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-muted">
        A SillyTavern chat (.jsonl) or a chat exported from Hearth (.json) becomes a new chat with{" "}
        {conversation.character.name}. Its user becomes your persona in this chat.
      </p>
      <FilePickerButton
        accept={accepted}
        disabled={busy}
        className="self-start"
        inputId={inputId}
        inputLabel="Chat file"
        onFile={(file) => void upload(file)}
      >
        <FileUp aria-hidden />
        Choose a chat file
      </FilePickerButton>
      {progress !== null ? (
        <UploadProgress
          progress={progress}
          label={`Uploading ${fileName ?? "chat"}`}
          workingText="Importing…"
        />
      ) : null}
      {error ? (
        <Banner tone="danger" title={`${fileName ?? "The file"} couldn't be imported`}>
          {error}
        </Banner>
      ) : null}
      {report ? <ImportSummary report={report} characterName={conversation.character.name} /> : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">{report ? "Close" : "Cancel"}</Button>
        </DialogClose>
        {report ? <Button onClick={() => void open()}>Open imported chat</Button> : null}
      </DialogFooter>
    </div>
  );
}

/** Import chat… (chat menu): a SillyTavern or Hearth chat file as a new chat with this character. */
export function ImportChatDialog({
  conversation,
  open,
  onOpenChange,
}: {
  conversation: Conversation;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent
          title="Import chat"
          description={`Bring a chat with ${conversation.character.name} into Hearth.`}
        >
          <ImportForm conversation={conversation} onDone={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
