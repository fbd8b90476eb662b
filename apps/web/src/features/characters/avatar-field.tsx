import { ImagePlus, ImageUp, Trash2 } from "lucide-react";
import { useId } from "react";
import { Button, buttonClass } from "../../ui/button.tsx";
import { CharacterPicture } from "./character-avatar.tsx";

export const avatarTypes = "image/png,image/jpeg,image/webp,image/gif";

interface AvatarFieldProps {
  /** The character's name, for alt text. */
  name: string;
  src: string | null;
  /** Upload progress 0..1; null when no upload runs; NaN while the size is unknown. */
  progress: number | null;
  error: string | null;
  /** Why nothing was uploaded yet (create mode: it uploads after the chatbot is created). */
  note?: string;
  disabled?: boolean;
  onPick: (file: File) => void;
  onRemove?: () => void;
}

/** The avatar picker: a preview, a file button (keyboard reachable), progress and errors. */
export function AvatarField({
  name,
  src,
  progress,
  error,
  note,
  disabled,
  onPick,
  onRemove,
}: AvatarFieldProps) {
  const inputId = useId();
  const uploading = progress !== null;
  const percent = progress !== null && Number.isFinite(progress) ? Math.round(progress * 100) : null;

  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      {src || name.trim() ? (
        <CharacterPicture
          name={name.trim() || "New chatbot"}
          src={src}
          className="aspect-square w-28 shrink-0 rounded-2xl text-2xl sm:w-32"
        />
      ) : (
        <span className="flex aspect-square w-28 shrink-0 items-center justify-center rounded-2xl border border-dashed border-border-strong bg-surface-2 text-muted sm:w-32">
          <ImagePlus aria-hidden className="size-8" />
        </span>
      )}
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <span className="text-sm font-medium">Avatar</span>
        <div className="flex flex-wrap gap-2">
          <label
            className={buttonClass(
              "outline",
              "sm",
              disabled || uploading
                ? "pointer-events-none opacity-50"
                : "has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring",
            )}
          >
            <input
              id={inputId}
              type="file"
              accept={avatarTypes}
              className="sr-only"
              disabled={disabled || uploading}
              aria-describedby={`${inputId}-hint`}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file) onPick(file);
              }}
            />
            <ImageUp aria-hidden />
            {src ? "Change image" : "Upload image"}
          </label>
          {onRemove && src ? (
            <Button variant="ghost" size="sm" disabled={disabled || uploading} onClick={onRemove}>
              <Trash2 aria-hidden />
              Remove
            </Button>
          ) : null}
        </div>
        {uploading ? (
          <div className="flex items-center gap-2">
            <progress
              className="h-2 w-full max-w-60 overflow-hidden rounded-full [&::-moz-progress-bar]:bg-accent [&::-webkit-progress-bar]:bg-surface-2 [&::-webkit-progress-value]:bg-accent"
              max={100}
              value={percent ?? undefined}
              aria-label="Avatar upload"
            />
            <span className="text-xs text-muted tabular-nums" aria-live="polite">
              {percent === null ? "Uploading…" : `${percent}%`}
            </span>
          </div>
        ) : null}
        {error ? (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        ) : null}
        <p id={`${inputId}-hint`} className="text-sm text-muted">
          {note ?? "PNG, JPEG, WebP or GIF. A square picture looks best."}
        </p>
      </div>
    </div>
  );
}
