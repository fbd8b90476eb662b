/**
 * An error's kind and first line, for logs: database errors carry the failed SQL and its
 * parameters (which can hold message text) after the first line, so only that line is kept.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 200);
  const code = (error as { code?: unknown }).code;
  const firstLine = (error.message.split("\n")[0] ?? "").replace(/params:.*$/i, "").slice(0, 200);
  return `${error.name}${typeof code === "string" ? ` ${code}` : ""}: ${firstLine}`;
}
