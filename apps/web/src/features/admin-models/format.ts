import type { ModelDownload } from "@hearth/contract";

/** Sizes in decimal units, as model hosts show them: "812 MB", "1.12 GB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(bytes >= 1e8 ? 0 : 1)} MB`;
  if (bytes >= 1e3) return `${Math.round(bytes / 1e3)} KB`;
  return `${bytes} B`;
}

const megabytes = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** "512.3" (MB, without the unit), for "512.3 of 1,117.3 MB". */
export function formatMegabytes(bytes: number): string {
  return megabytes.format(bytes / 1e6);
}

/** "0:42", "12:05", "1:02:05". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

export interface DownloadFigures {
  /** Whole percent, or null when the size is unknown. */
  percent: number | null;
  /** "512.3 of 1,117.3 MB" (or "512.3 MB" when the size is unknown). */
  amount: string;
  /** "12.4 MB/s", or null before there is a speed to show. */
  speed: string | null;
  /** "0:49 left", or null when it can't be told. */
  eta: string | null;
}

export function downloadFigures(download: ModelDownload): DownloadFigures {
  const { received_bytes: received, total_bytes: total, bytes_per_second: speed } = download;
  const known = total !== null && total > 0;
  const percent = known ? Math.min(100, Math.floor((received / total) * 100)) : null;
  const amount = known
    ? `${formatMegabytes(received)} of ${formatMegabytes(total)} MB`
    : `${formatMegabytes(received)} MB`;
  const running = download.status === "running";
  const speedText = running && speed > 0 ? `${formatMegabytes(speed)} MB/s` : null;
  const eta =
    running && known && speed > 0 && received < total
      ? `${formatDuration((total - received) / speed)} left`
      : null;
  return { percent, amount, speed: speedText, eta };
}
