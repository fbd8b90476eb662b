import type { ModelDownload } from "@hearth/contract";
import { CircleStop } from "lucide-react";
import { useEffect, useRef } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Badge, type BadgeTone } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Card, CardContent } from "../../ui/card.tsx";
import { cn } from "../../ui/cn.ts";
import { useCancelDownload } from "./api.ts";
import { downloadFigures } from "./format.ts";

const statusLabel: Record<ModelDownload["status"], { text: string; tone: BadgeTone }> = {
  running: { text: "Downloading", tone: "info" },
  done: { text: "Downloaded", tone: "success" },
  failed: { text: "Failed", tone: "danger" },
  cancelled: { text: "Cancelled", tone: "neutral" },
};

interface DownloadPanelProps {
  download: ModelDownload;
  /** Move focus to the panel (when the admin has just started this download). */
  focus: boolean;
  /** Offered once it is downloaded; null when the model can't be made active from here. */
  onUse: (() => void) | null;
  usePending: boolean;
  /** The downloaded model is the active one already. */
  isActive: boolean;
}

/** The running (or last) download: a live progress bar with Cancel, then how it ended. */
export function DownloadPanel({ download, focus, onUse, usePending, isActive }: DownloadPanelProps) {
  const cancel = useCancelDownload();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus();
  }, [focus]);

  const figures = downloadFigures(download);
  const status = statusLabel[download.status];
  const running = download.status === "running";
  const percent = download.status === "done" ? 100 : figures.percent;

  return (
    <section aria-labelledby="download-heading" className="flex flex-col gap-3">
      <h2 id="download-heading" ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
        Download
      </h2>
      <Card>
        <CardContent className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
            <p className="min-w-0 font-medium break-words">{download.name}</p>
            <Badge tone={status.tone}>{status.text}</Badge>
          </div>

          <div
            role="progressbar"
            aria-label={`Download of ${download.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent ?? undefined}
            aria-valuetext={percent === null ? `${figures.amount} so far` : `${percent}%, ${figures.amount}`}
            className="h-2.5 overflow-hidden rounded-full bg-surface-2"
          >
            <div
              className={cn(
                "h-full rounded-full transition-[width] duration-500",
                download.status === "failed"
                  ? "bg-danger"
                  : download.status === "done"
                    ? "bg-success"
                    : "bg-accent",
                percent === null && running && "w-1/3 animate-pulse",
              )}
              style={percent === null ? undefined : { width: `${percent}%` }}
            />
          </div>

          <p className="flex flex-wrap gap-x-3 gap-y-0.5 text-sm text-muted tabular-nums">
            {percent !== null ? <span className="font-medium text-fg">{percent}%</span> : null}
            <span>{figures.amount}</span>
            {figures.speed ? <span>{figures.speed}</span> : null}
            {figures.eta ? <span>{figures.eta}</span> : null}
          </p>

          {running ? (
            <>
              {download.note ? <p className="text-sm text-muted">{download.note}</p> : null}
              {cancel.error ? <Banner tone="danger">{errorMessage(cancel.error)}</Banner> : null}
              <div>
                <Button
                  variant="outline"
                  size="sm"
                  loading={cancel.isPending}
                  onClick={() => cancel.mutate()}
                >
                  {cancel.isPending ? null : <CircleStop aria-hidden />}
                  Cancel download
                </Button>
              </div>
            </>
          ) : download.status === "done" ? (
            <Banner
              tone="success"
              title={`${download.name} is downloaded`}
              action={
                isActive ? (
                  <Badge tone="success">Active</Badge>
                ) : onUse ? (
                  <Button size="sm" loading={usePending} onClick={onUse}>
                    Use this model
                  </Button>
                ) : null
              }
            >
              {download.note}
            </Banner>
          ) : download.status === "failed" ? (
            <Banner tone="danger" title="The download failed">
              {download.error}
            </Banner>
          ) : (
            <Banner tone="info" title="The download was cancelled">
              {download.note}
            </Banner>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
