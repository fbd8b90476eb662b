import { useEffect, useRef } from "react";

/** Confetti colours: the brand's accent and the theme's signal colours, so it suits any palette. */
const COLOURS = ["var(--brand-accent)", "var(--success)", "var(--info)", "var(--warning)", "var(--danger)"];
const PIECES = 28;

export const prefersReducedMotion = () =>
  typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/**
 * A short burst of confetti from the middle of its (relatively positioned) parent, drawn with the
 * Web Animations API and removed when it lands: no library, nothing for assistive technology, and
 * nothing at all for readers who asked for reduced motion.
 */
export function ConfettiBurst({ fire }: { fire: number }) {
  const box = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const host = box.current;
    if (!fire || !host || prefersReducedMotion() || typeof host.animate !== "function") return;
    const pieces: HTMLSpanElement[] = [];
    for (let i = 0; i < PIECES; i++) {
      const piece = document.createElement("span");
      const size = 6 + (i % 3) * 2;
      Object.assign(piece.style, {
        position: "absolute",
        left: "50%",
        top: "45%",
        width: `${size}px`,
        height: `${size * 0.45}px`,
        borderRadius: "1px",
        background: COLOURS[i % COLOURS.length],
      });
      host.appendChild(piece);
      pieces.push(piece);
      const angle = (i / PIECES) * Math.PI * 2 + Math.random() * 0.4;
      const reach = 70 + Math.random() * 90;
      const dx = Math.cos(angle) * reach;
      const dy = Math.sin(angle) * reach * 0.7 - 40;
      const spin = (Math.random() - 0.5) * 720;
      const animation = piece.animate(
        [
          { transform: "translate(-50%, -50%) rotate(0deg)", opacity: 1 },
          { transform: `translate(${dx}px, ${dy}px) rotate(${spin / 2}deg)`, opacity: 1, offset: 0.55 },
          { transform: `translate(${dx * 1.15}px, ${dy + 90}px) rotate(${spin}deg)`, opacity: 0 },
        ],
        { duration: 1100 + Math.random() * 500, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)", fill: "forwards" },
      );
      animation.onfinish = () => piece.remove();
    }
    return () => {
      for (const piece of pieces) piece.remove();
    };
  }, [fire]);
  return <span ref={box} aria-hidden className="pointer-events-none absolute inset-0 overflow-visible" />;
}
