import type { PromptReport } from "@hearth/contract";
import { promptSectionName } from "@hearth/contract/labels";
import { useQuery } from "@tanstack/react-query";
import { Pin, RotateCcw } from "lucide-react";
import type { ReactNode } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { isNotFound, promptReportQuery } from "./api.ts";

const n = (value: number) => value.toLocaleString("en-US");
const plural = (count: number, one: string, many: string) => `${n(count)} ${count === 1 ? one : many}`;

/** Why a lorebook entry was used, in words: the key it matched, or how else it came in. */
function loreReason(reason: string): string {
  if (reason === "constant") return "always on";
  if (reason === "recursion") return "recursion: named by another entry";
  if (reason === "hidden") return "from the chatbot's own lorebook";
  return `key “${reason}”`;
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex flex-col gap-1.5" aria-label={title}>
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

const none = (text: string) => <p className="text-sm text-muted">{text}</p>;

function Report({ report }: { report: PromptReport }) {
  const generated = new Date(report.generated_at);
  return (
    <div className="flex flex-col gap-5" data-prompt-report>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-muted">Persona</dt>
        <dd className="min-w-0 break-words">{report.persona_name}</dd>
        <dt className="text-muted">History used</dt>
        <dd>
          {plural(report.history_messages, "message", "messages")}
          {report.history_left_out > 0
            ? `; ${n(report.history_left_out)} older left out`
            : "; nothing left out"}
        </dd>
        <dt className="text-muted">Prompt</dt>
        <dd>
          {n(report.prompt_tokens)} tokens of {n(report.context_tokens)}
        </dd>
        {report.model_id ? (
          <>
            <dt className="text-muted">Model</dt>
            <dd className="min-w-0 break-words">{report.model_id}</dd>
          </>
        ) : null}
        {Number.isNaN(generated.getTime()) ? null : (
          <>
            <dt className="text-muted">Written</dt>
            <dd>{generated.toLocaleString()}</dd>
          </>
        )}
      </dl>

      <Part title="Memories used">
        {report.memories.length === 0 ? (
          none("None.")
        ) : (
          <ul className="flex flex-col gap-1.5 text-sm">
            {report.memories.map((memory) => (
              <li key={memory.id} className="flex items-start gap-2 rounded-lg bg-surface-2 px-3 py-2">
                <span className="min-w-0 flex-1 break-words">{memory.content}</span>
                {memory.pinned ? (
                  <Badge tone="accent">
                    <Pin aria-hidden className="size-3" />
                    Pinned
                  </Badge>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Part>

      <Part title="Lorebook entries used">
        {report.lore.length === 0 ? (
          none("None.")
        ) : (
          <ul className="flex flex-col gap-1 text-sm">
            {report.lore.map((entry) => (
              <li key={entry.id} className="break-words">
                <span className="font-medium">{entry.name || "Unnamed entry"}</span>
                <span className="text-muted"> — {loreReason(entry.reason)}</span>
              </li>
            ))}
          </ul>
        )}
      </Part>

      <Part title="Cut to fit">
        {report.trims.length === 0 ? (
          none("Nothing: everything fit in the model's window.")
        ) : (
          <ul className="flex list-disc flex-col gap-1 pl-5 text-sm">
            {report.trims.map((trim) => (
              <li key={trim.section}>
                {promptSectionName[trim.section]}:{" "}
                {trim.kept_tokens === 0
                  ? `left out (all ${n(trim.full_tokens)} tokens)`
                  : `${n(trim.kept_tokens)} of ${n(trim.full_tokens)} tokens kept`}
              </li>
            ))}
          </ul>
        )}
      </Part>
    </div>
  );
}

function ReportBody({ messageId }: { messageId: string }) {
  const report = useQuery(promptReportQuery(messageId));
  if (report.isPending) {
    return (
      <div className="flex justify-center py-8 text-muted">
        <Spinner label="Loading what the prompt held" />
      </div>
    );
  }
  if (report.isError) {
    if (isNotFound(report.error)) {
      return (
        <Banner tone="info">
          No prompt was recorded for this reply (replies written before this feature, or still being written).
        </Banner>
      );
    }
    return (
      <Banner
        tone="danger"
        title="This could not be loaded."
        action={
          <Button
            variant="outline"
            size="sm"
            loading={report.isFetching}
            onClick={() => void report.refetch()}
          >
            <RotateCcw aria-hidden />
            Retry
          </Button>
        }
      >
        {errorMessage(report.error)}
      </Banner>
    );
  }
  return <Report report={report.data} />;
}

/** "Why this reply?": what the prompt that wrote a bot message held (GET /api/messages/{id}/prompt). */
export function PromptReportDialog({
  messageId,
  onOpenChange,
}: {
  /** The bot message asked about; null while closed. */
  messageId: string | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={messageId !== null} onOpenChange={onOpenChange}>
      {messageId ? (
        <DialogContent
          title="Why this reply?"
          description="What the model was given when it wrote this reply."
        >
          <ReportBody messageId={messageId} />
          <DialogFooter>
            <DialogClose asChild>
              <Button>Done</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
