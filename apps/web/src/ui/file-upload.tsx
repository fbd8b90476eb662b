import type { ReactNode } from "react";
import { type ButtonSize, buttonClass } from "./button.tsx";
import { cn } from "./cn.ts";

/**
 * A file picker that looks like a button: the input is hidden inside its label, and the label
 * shows the focus ring while the input has the keyboard's focus. The input is emptied after each
 * pick, so the same file can be picked again after an error.
 */
export function FilePickerButton({
  accept,
  disabled = false,
  size = "md",
  className,
  inputId,
  inputLabel,
  onFile,
  children,
}: {
  accept: string;
  disabled?: boolean;
  size?: ButtonSize;
  className?: string;
  inputId?: string;
  /** The input's own name, when the label's words are not it. */
  inputLabel?: string;
  onFile: (file: File) => void;
  children: ReactNode;
}) {
  return (
    <label
      className={cn(
        buttonClass("outline", size, className),
        disabled
          ? "pointer-events-none opacity-50"
          : "has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring",
      )}
    >
      <input
        id={inputId}
        type="file"
        accept={accept}
        className="sr-only"
        disabled={disabled}
        aria-label={inputLabel}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) onFile(file);
        }}
      />
      {children}
    </label>
  );
}

/**
 * An upload's progress (0-1, NaN while its size is unknown): a bar and the percentage, then
 * `workingText` once every byte is sent and the server is still at work.
 */
export function UploadProgress({
  progress,
  label,
  workingText,
  className,
}: {
  progress: number;
  label: string;
  workingText: string;
  className?: string;
}) {
  const percent = Number.isFinite(progress) ? Math.round(progress * 100) : null;
  return (
    <div className={cn("flex items-center gap-2", className)}>
      <progress
        className="h-2 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-accent [&::-webkit-progress-bar]:bg-surface-2 [&::-webkit-progress-value]:bg-accent"
        max={100}
        value={percent ?? undefined}
        aria-label={label}
      />
      <span className="shrink-0 text-xs text-muted tabular-nums" aria-live="polite">
        {percent === null || percent >= 100 ? workingText : `${percent}%`}
      </span>
    </div>
  );
}
