import { useState } from "react";
import { cn } from "../../ui/cn.ts";

interface CharacterPictureProps {
  name: string;
  src: string | null;
  /** Blur the picture (an NSFW avatar while the viewer's NSFW setting is off). */
  blurred?: boolean;
  className?: string;
}

/**
 * A character's picture filling its box (cards, profile). Without a picture, or when it fails to
 * load, the name's first letter on a tinted panel stands in. Alt text is always the name.
 */
export function CharacterPicture({ name, src, blurred, className }: CharacterPictureProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const letter = Array.from(name.trim())[0]?.toUpperCase() ?? "?";
  if (!src || failed === src) {
    return (
      <span
        role="img"
        aria-label={`Avatar of ${name}`}
        className={cn(
          "flex items-center justify-center bg-gradient-to-br from-accent-soft to-surface-2 font-semibold text-accent-text",
          className,
        )}
      >
        <span aria-hidden className="text-[2.5em] leading-none">
          {letter}
        </span>
      </span>
    );
  }
  return (
    <span className={cn("relative block overflow-hidden bg-surface-2", className)}>
      <img
        src={src}
        alt={blurred ? `Avatar of ${name} (blurred: NSFW)` : `Avatar of ${name}`}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(src)}
        className={cn("size-full object-cover", blurred && "scale-110 blur-xl")}
      />
    </span>
  );
}
