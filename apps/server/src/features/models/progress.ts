import type { DownloadProgress } from "./download.ts";
import { formatDuration, formatMegabytes } from "./format.ts";

/**
 * Download progress on stderr: a bar redrawn in place on a terminal, or a plain line every 5%
 * (every 50 MB when the size is unknown) when the output goes to a log or a pipe.
 */
export interface ProgressReporter {
  update(progress: DownloadProgress): void;
  /** Prints a message on its own line without garbling the bar. */
  note(message: string): void;
  /** Ends the bar's line. */
  finish(): void;
}

interface Output {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

const REDRAW_MS = 100;
const LINE_STEP_PERCENT = 5;
const LINE_STEP_BYTES = 50e6;

export function createProgressReporter(out: Output, now: () => number = Date.now): ProgressReporter {
  const startedAt = now();
  let lastDraw = 0;
  let barShown = false;
  let nextStep = LINE_STEP_PERCENT;
  let nextBytes = LINE_STEP_BYTES;
  let latest: DownloadProgress | null = null;

  const elapsed = () => (now() - startedAt) / 1000;
  // The bar takes what the terminal width leaves after the text (none on a very narrow one).
  const barWidthFor = (progress: DownloadProgress) => {
    const columns = out.columns || 80;
    const text = formatProgressLine(progress, elapsed(), 0).length;
    const room = Math.min(30, columns - 1 - text - 3);
    return room >= 10 ? room : 0;
  };
  const draw = () => {
    if (!latest) return;
    out.write(`\r${formatProgressLine(latest, elapsed(), barWidthFor(latest))}\x1b[K`);
    barShown = true;
    lastDraw = now();
  };

  return {
    update(progress) {
      latest = progress;
      if (out.isTTY) {
        const done = progress.totalBytes !== null && progress.receivedBytes >= progress.totalBytes;
        if (done || now() - lastDraw >= REDRAW_MS) draw();
        return;
      }
      const { receivedBytes, totalBytes } = progress;
      if (totalBytes) {
        const percent = (receivedBytes / totalBytes) * 100;
        if (percent < nextStep) return;
        while (nextStep <= percent) nextStep += LINE_STEP_PERCENT;
      } else {
        if (receivedBytes < nextBytes) return;
        while (nextBytes <= receivedBytes) nextBytes += LINE_STEP_BYTES;
      }
      out.write(`${formatProgressLine(progress, elapsed(), 0)}\n`);
    },
    note(message) {
      if (!out.isTTY || !barShown) {
        out.write(`${message}\n`);
      } else if (latest?.totalBytes && latest.receivedBytes >= latest.totalBytes) {
        // Transfer done (e.g. "Verifying…"): leave the full bar above the note.
        out.write(`\n${message}\n`);
        barShown = false;
      } else {
        out.write(`\r\x1b[K${message}\n`);
        draw();
      }
    },
    finish() {
      if (out.isTTY && barShown) {
        draw();
        out.write("\n");
      }
      barShown = false;
    },
  };
}

/** " 42% [██████░░░░]  512.3/1117.3 MB  12.4 MB/s  ETA 0:49"; barWidth 0 leaves the bar out. */
export function formatProgressLine(
  progress: DownloadProgress,
  elapsedSeconds: number,
  barWidth: number,
): string {
  const { receivedBytes, totalBytes, resumedFromBytes } = progress;
  // Speed counts only this session's bytes, so a resumed download does not look impossibly fast.
  const speed = elapsedSeconds >= 1 ? (receivedBytes - resumedFromBytes) / elapsedSeconds : null;
  const speedText = speed === null ? "-- MB/s" : `${formatMegabytes(speed)} MB/s`;
  if (!totalBytes) return `${formatMegabytes(receivedBytes)} MB  ${speedText}`;

  const fraction = Math.min(1, receivedBytes / totalBytes);
  const percent = `${Math.floor(fraction * 100)}%`.padStart(4);
  const amount = `${formatMegabytes(receivedBytes)}/${formatMegabytes(totalBytes)} MB`;
  const eta = speed ? `ETA ${formatDuration((totalBytes - receivedBytes) / speed)}` : "ETA --:--";
  const bar = barWidth > 0 ? ` [${"█".repeat(Math.round(fraction * barWidth)).padEnd(barWidth, "░")}]` : "";
  return `${percent}${bar}  ${amount}  ${speedText}  ${eta}`;
}
