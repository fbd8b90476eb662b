// Reading V8 CPU profiles (node --cpu-prof), shared by bench/accept-cpu.ts and bench/stalls.ts:
// how a frame is named, which package or Hearth folder it belongs to, and a share table.

/** A V8 profile's call frame. */
export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

/** The frame's address with the checkout's `root` taken off (`/apps/...`, `/node_modules/...`). */
const shortUrl = (url: string, root: string) => url.replace(/^file:\/\//, "").replace(root, "");

/** A function as the tables name it: `name /path:line`. */
export function frameLabel(frame: CallFrame, root: string): string {
  return `${frame.functionName || "(anon)"} ${shortUrl(frame.url, root)}:${frame.lineNumber}`;
}

/** Hearth's own code (not a dependency's). */
export function isHearthFrame(frame: CallFrame): boolean {
  const { url } = frame;
  return (url.includes("/apps/") || url.includes("/packages/")) && !url.includes("node_modules");
}

/** The npm package a frame is in, Hearth's folder (`/apps/server/src/features/chats`), or `(name)` for V8's own. */
export function packageOf(frame: CallFrame, root: string): string {
  const url = shortUrl(frame.url, root);
  if (!url) return `(${frame.functionName})`;
  if (url.includes("node_modules/")) {
    const rest = url.split("node_modules/").at(-1) ?? url;
    return rest
      .split("/")
      .slice(0, rest.startsWith("@") ? 2 : 1)
      .join("/");
  }
  return url.startsWith("/apps") || url.startsWith("/packages") ? url.split("/").slice(0, 6).join("/") : url;
}

/** The `n` largest counts as shares of `total`, one line each. */
export function topShares(counts: Map<string, number>, total: number, n: number): string {
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join("\n");
}
