import type { ChatExportFormat, Conversation } from "@hearth/contract";
import { Download, Printer } from "lucide-react";
import { Button, buttonClass } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { exportHref } from "./api.ts";

const downloads: { format: ChatExportFormat; label: string; note: string }[] = [
  {
    format: "hearth",
    label: "Hearth chat (.json)",
    note: "Everything: alternatives, persona, title, memories, lorebooks. Import it back into Hearth.",
  },
  {
    format: "sillytavern",
    label: "SillyTavern chat (.jsonl)",
    note: "Opens in SillyTavern, with every alternative as a swipe.",
  },
  { format: "markdown", label: "Markdown (.md)", note: "Readable text for notes and documents." },
];

/** Export chat… (chat menu): download this chat as a file, or open a page to print. */
export function ExportChatDialog({
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
        <DialogContent title="Export chat" description="Download this chat, or open it as a page to print.">
          <ul className="flex flex-col gap-3" aria-label="Export formats">
            {downloads.map((d) => (
              <li key={d.format} className="flex flex-col gap-1">
                <a
                  href={exportHref(conversation.id, d.format)}
                  download
                  className={buttonClass("outline", "md", "justify-start self-start")}
                >
                  <Download aria-hidden />
                  {d.label}
                </a>
                <p className="text-sm text-muted">{d.note}</p>
              </li>
            ))}
            <li className="flex flex-col gap-1">
              <a
                href={exportHref(conversation.id, "html")}
                target="_blank"
                rel="noopener"
                className={buttonClass("outline", "md", "justify-start self-start")}
              >
                <Printer aria-hidden />
                Printable page
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
              <p className="text-sm text-muted">Opens in a new tab; print it or save it as a PDF.</p>
            </li>
          </ul>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="outline">Close</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
