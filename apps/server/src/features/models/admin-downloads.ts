import type { ModelDownload } from "@hearth/contract";
import { DownloadError, type DownloadProgress, downloadModel } from "./download.ts";
import { formatBytes } from "./format.ts";

/**
 * Model downloads started from the admin page: one at a time, in this process, in the background.
 * The state of the current (or last) download is kept for the page to poll. A cancel leaves the
 * `.part` file in place, so the next download of the same model resumes it (as the CLI does).
 */

export interface DownloadJob {
  id: string;
  name: string;
  url: string;
  /** Where the finished file goes; its `.part` sits next to it meanwhile. */
  dest: string;
  expectedSha256?: string;
}

/** Speed is measured over this much recent time, so it follows the connection as it changes. */
const SPEED_WINDOW_MS = 5_000;

interface Sample {
  at: number;
  bytes: number;
}

export class ModelDownloads {
  private state: ModelDownload | null = null;
  private controller: AbortController | null = null;
  private running: Promise<void> | null = null;
  private samples: Sample[] = [];

  constructor(
    private options: {
      now?: () => number;
      /** Called once a download has finished and its file is in place. */
      onDone?: (job: DownloadJob) => void;
      onUnexpectedError?: (error: unknown) => void;
    } = {},
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** The current or last download, or null when none was started since the server started. */
  current(): ModelDownload | null {
    if (!this.state) return null;
    return { ...this.state, bytes_per_second: this.isRunning() ? this.speed() : 0 };
  }

  isRunning(): boolean {
    return this.state?.status === "running";
  }

  /** Starts a download in the background; the caller checks isRunning() first. */
  start(job: DownloadJob): ModelDownload {
    if (this.isRunning()) throw new Error("A download is already running.");
    const controller = new AbortController();
    this.controller = controller;
    this.samples = [];
    this.state = {
      id: job.id,
      name: job.name,
      status: "running",
      received_bytes: 0,
      total_bytes: null,
      bytes_per_second: 0,
      error: null,
      note: null,
      started_at: new Date(this.now()).toISOString(),
      finished_at: null,
    };
    const state = this.state;
    const onProgress = (progress: DownloadProgress) => {
      if (this.samples.length === 0) this.samples.push({ at: this.now(), bytes: progress.resumedFromBytes });
      state.received_bytes = progress.receivedBytes;
      state.total_bytes = progress.totalBytes;
      this.sample(progress.receivedBytes);
    };
    this.running = downloadModel({
      url: job.url,
      dest: job.dest,
      expectedSha256: job.expectedSha256,
      signal: controller.signal,
      onProgress,
      onNote: (message) => {
        state.note = message;
      },
    }).then(
      (result) => {
        state.received_bytes = result.bytes;
        state.total_bytes = result.bytes;
        state.note =
          result.checksumSource === "none"
            ? `Saved ${formatBytes(result.bytes)}; size and GGUF header checked (no sha256 is published for it).`
            : `Saved ${formatBytes(result.bytes)}; sha256 verified.`;
        this.finish(state, "done");
        try {
          this.options.onDone?.(job);
        } catch (error) {
          this.options.onUnexpectedError?.(error);
        }
      },
      (error: unknown) => {
        if (controller.signal.aborted) {
          state.note =
            state.received_bytes > 0
              ? `Cancelled. ${formatBytes(state.received_bytes)} kept: downloading it again resumes from there.`
              : "Cancelled.";
          this.finish(state, "cancelled");
          return;
        }
        if (error instanceof DownloadError) {
          state.error = forThePage(error.message);
        } else {
          this.options.onUnexpectedError?.(error);
          state.error = "The download failed because of a problem on the server. Its log has the details.";
        }
        this.finish(state, "failed");
      },
    );
    return this.current() as ModelDownload;
  }

  /** Cancels the running download and waits until it has stopped. False when none was running. */
  async cancel(): Promise<boolean> {
    if (!this.isRunning()) return false;
    this.controller?.abort();
    await this.running;
    return true;
  }

  /** Waits for the running download (if any) to end, however it ends. */
  async settled(): Promise<void> {
    await this.running;
  }

  /** Stops a running download, e.g. when the server shuts down. */
  async close(): Promise<void> {
    await this.cancel();
  }

  private finish(state: ModelDownload, status: ModelDownload["status"]): void {
    state.status = status;
    state.finished_at = new Date(this.now()).toISOString();
    this.controller = null;
  }

  private sample(bytes: number): void {
    const at = this.now();
    const last = this.samples.at(-1);
    // One sample per 100 ms is plenty; chunks arrive far more often.
    if (last && at - last.at < 100) last.bytes = bytes;
    else this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - (this.samples[1]?.at ?? at) > SPEED_WINDOW_MS)
      this.samples.shift();
  }

  /** Bytes per second over the recent window; 0 until there is half a second of data. */
  private speed(): number {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last) return 0;
    const span = Math.max(last.at, this.now()) - first.at;
    if (span < 500) return 0;
    return Math.max(0, Math.round(((last.bytes - first.bytes) * 1000) / span));
  }
}

/** DownloadError messages are written for the CLI; on the page there is no command to run. */
function forThePage(message: string): string {
  return message
    .replaceAll("Run the command again", "Start the download again")
    .replaceAll("run the command again", "start the download again");
}
