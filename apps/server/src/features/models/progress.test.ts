import { describe, expect, it } from "vitest";
import type { DownloadProgress } from "./download.ts";
import { createProgressReporter, formatProgressLine } from "./progress.ts";

describe("progress display", () => {
  const at = (receivedBytes: number, totalBytes: number | null): DownloadProgress => ({
    receivedBytes,
    totalBytes,
    resumedFromBytes: 0,
  });

  it("formats percent, megabytes, speed and ETA", () => {
    expect(formatProgressLine(at(50e6, 100e6), 10, 0)).toBe(" 50%  50.0/100.0 MB  5.0 MB/s  ETA 0:10");
    expect(formatProgressLine(at(25e6, 100e6), 5, 24)).toBe(
      ` 25% [${"█".repeat(6)}${"░".repeat(18)}]  25.0/100.0 MB  5.0 MB/s  ETA 0:15`,
    );
    expect(formatProgressLine(at(3e6, null), 0.5, 0)).toBe("3.0 MB  -- MB/s");
  });

  it("writes a plain line every 5% when the output is not a terminal", () => {
    const lines: string[] = [];
    const reporter = createProgressReporter({ isTTY: false, write: (t) => lines.push(t) }, () => 0);
    for (let bytes = 0; bytes <= 1000; bytes += 10) reporter.update(at(bytes, 1000));
    reporter.finish();
    expect(lines).toHaveLength(20);
    expect(lines[0]).toMatch(/^ {2}5% /);
    expect(lines.at(-1)).toMatch(/^100% /);
  });

  it("redraws one line in place on a terminal", () => {
    let clock = 0;
    const writes: string[] = [];
    const reporter = createProgressReporter(
      { isTTY: true, columns: 120, write: (t) => writes.push(t) },
      () => clock,
    );
    for (let bytes = 0; bytes <= 1000; bytes += 100) {
      clock += 200;
      reporter.update(at(bytes, 1000));
    }
    reporter.note("Verifying sha256…");
    reporter.finish();
    const bars = writes.filter((w) => w.includes("%"));
    expect(bars.every((w) => w.startsWith("\r") && w.endsWith("\x1b[K"))).toBe(true);
    expect(bars.at(-1)).toMatch(/^\r100% \[█{30}\] {2}0\.0\/0\.0 MB/);
    expect(writes.at(-1)).toBe("\nVerifying sha256…\n");
  });

  it("drops the bar on a narrow terminal and keeps notes above the bar mid-download", () => {
    let clock = 0;
    const writes: string[] = [];
    const reporter = createProgressReporter(
      { isTTY: true, columns: 50, write: (t) => writes.push(t) },
      () => clock,
    );
    clock += 2000;
    reporter.update(at(400e6, 1000e6));
    reporter.note("Resuming: 400.0 MB already downloaded.");
    expect(writes).toEqual([
      "\r 40%  400.0/1000.0 MB  200.0 MB/s  ETA 0:03\x1b[K",
      "\r\x1b[KResuming: 400.0 MB already downloaded.\n",
      "\r 40%  400.0/1000.0 MB  200.0 MB/s  ETA 0:03\x1b[K",
    ]);
  });
});
