import { useState } from "react";
import { cn } from "./cn.ts";

const sizes = { sm: "size-8 text-xs", md: "size-10 text-sm", lg: "size-14 text-lg" } as const;

interface AvatarProps {
  name: string;
  src?: string | null;
  size?: keyof typeof sizes;
  className?: string;
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [name.trim()];
  return letters
    .map((word) => Array.from(word ?? "")[0] ?? "")
    .join("")
    .toUpperCase();
}

/** A round picture with the person's name as alt text, or their initials when there is none. */
export function Avatar({ name, src, size = "md", className }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const box = cn(
    "inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full bg-accent-soft font-semibold text-accent-text",
    sizes[size],
    className,
  );
  if (src && !failed) {
    return <img src={src} alt={name} className={cn(box, "object-cover")} onError={() => setFailed(true)} />;
  }
  return (
    <span className={box} role="img" aria-label={name}>
      <span aria-hidden>{initials(name) || "?"}</span>
    </span>
  );
}
