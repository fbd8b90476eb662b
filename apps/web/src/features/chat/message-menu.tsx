import { useParams } from "@tanstack/react-router";
import {
  AudioLines,
  Check,
  Copy,
  Ellipsis,
  Flag,
  ImageIcon,
  MessageCircleQuestionMark,
  Pencil,
} from "lucide-react";
import { useRef, useState } from "react";
import { useMe } from "../../lib/session.ts";
import { useCopy } from "../../lib/use-copy.ts";
import { cn } from "../../ui/cn.ts";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from "../../ui/dropdown-menu.tsx";
import { PromptReportDialog } from "../memories/prompt-report-dialog.tsx";
import { FlagDialog, type FlaggedMessage } from "../moderation/flag-dialog.tsx";
import { VoiceRatingDialog } from "../voice/voice-rating-dialog.tsx";
import { useWaitingGate } from "../waiting-room/use-waiting-room.ts";

export const iconButton =
  "inline-flex size-9 items-center justify-center rounded-lg text-muted transition hover:bg-surface-2 hover:text-fg " +
  "disabled:pointer-events-none disabled:opacity-40 aria-disabled:cursor-default aria-disabled:opacity-40 " +
  "aria-disabled:hover:bg-transparent aria-disabled:hover:text-muted [&_svg]:size-4";

interface MessageMenuProps {
  text: string;
  className?: string;
  /** Edit (the text edit mode of §4); absent when the message can't be edited now. */
  onEdit?: () => void;
  /** Edit image prompt, for messages that have one. */
  onEditImagePrompt?: () => void;
  /**
   * A stored bot message of the viewer's own chat: Report (the flag names its conversation) and
   * "Why this reply?" (what its prompt held; the server answers only the chat's owner).
   */
  report?: { messageId: string; conversationId: string };
}

/**
 * The message menu of §2: Copy (with a 2-second confirmation), Edit, Report (the §4 flow), and on
 * a bot reply "Why this reply?" (the memories, lore and cuts behind it).
 */
export function MessageMenu({ text, className, onEdit, onEditImagePrompt, report }: MessageMenuProps) {
  const { copied, copy: copyText } = useCopy();
  const copy = () => copyText(text);
  const me = useMe();
  // The chat's route names its bot; flags need report_character (members, not guests).
  const { characterId } = useParams({ strict: false }) as { characterId?: string };
  // Hidden while waiting in line (§4 "Waiting queue").
  const gated = useWaitingGate();
  const canReport = Boolean(report && characterId && !gated && me?.permissions.includes("report_character"));
  const [flagging, setFlagging] = useState<FlaggedMessage | null>(null);
  const [explaining, setExplaining] = useState<string | null>(null);
  const [ratingVoice, setRatingVoice] = useState<string | null>(null);
  // Rate voice quality (§2): on a stored bot reply, for members with voice (TTS).
  const canRateVoice = Boolean(report && me?.permissions.includes("TTS"));
  // An edit box takes the focus: the closing menu must not hand it back to its button.
  const keepFocus = useRef(false);

  return (
    <span className={cn("inline-flex items-center", className)}>
      <DropdownMenu>
        <DropdownMenuTrigger
          className={cn(iconButton, "data-[state=open]:bg-surface-2")}
          aria-label="Message actions"
        >
          {copied ? <Check aria-hidden className="text-success" /> : <Ellipsis aria-hidden />}
        </DropdownMenuTrigger>
        <DropdownMenuContent
          align="start"
          className="min-w-40"
          onCloseAutoFocus={(event) => {
            if (keepFocus.current) event.preventDefault();
            keepFocus.current = false;
          }}
        >
          <DropdownMenuItem onSelect={() => void copy()}>
            <Copy aria-hidden />
            Copy
          </DropdownMenuItem>
          {onEdit ? (
            <DropdownMenuItem
              onSelect={() => {
                keepFocus.current = true;
                onEdit();
              }}
            >
              <Pencil aria-hidden />
              Edit
            </DropdownMenuItem>
          ) : null}
          {onEditImagePrompt ? (
            <DropdownMenuItem
              onSelect={() => {
                keepFocus.current = true;
                onEditImagePrompt();
              }}
            >
              <ImageIcon aria-hidden />
              Edit image prompt
            </DropdownMenuItem>
          ) : null}
          {report ? (
            <DropdownMenuItem onSelect={() => setExplaining(report.messageId)}>
              <MessageCircleQuestionMark aria-hidden />
              Why this reply?
            </DropdownMenuItem>
          ) : null}
          {canRateVoice && report ? (
            <DropdownMenuItem onSelect={() => setRatingVoice(report.messageId)}>
              <AudioLines aria-hidden />
              Rate voice quality
            </DropdownMenuItem>
          ) : null}
          {canReport && report && characterId ? (
            <DropdownMenuItem onSelect={() => setFlagging({ ...report, characterId })}>
              <Flag aria-hidden />
              Report
            </DropdownMenuItem>
          ) : null}
        </DropdownMenuContent>
      </DropdownMenu>
      <FlagDialog message={flagging} onOpenChange={(open) => (open ? null : setFlagging(null))} />
      <VoiceRatingDialog messageId={ratingVoice} onClose={() => setRatingVoice(null)} />
      <PromptReportDialog
        messageId={explaining}
        onOpenChange={(open) => (open ? null : setExplaining(null))}
      />
      <span role="status" className={cn("text-xs text-success", copied ? "pr-1" : "sr-only")}>
        {copied ? "Copied" : ""}
      </span>
    </span>
  );
}
