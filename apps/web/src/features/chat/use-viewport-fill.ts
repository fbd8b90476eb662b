import { type RefObject, useLayoutEffect } from "react";

/**
 * Sizes an element to fill the window from where it starts down to the bottom edge, so the chat
 * scrolls inside its message list while the header and the input stay put. It follows the
 * visual viewport, which shrinks when a phone's on-screen keyboard opens.
 */
export function useViewportFill(ref: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const viewport = window.visualViewport;
    let frame = 0;
    const fit = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const top = element.getBoundingClientRect().top + window.scrollY;
        const height = (viewport?.height ?? window.innerHeight) - top;
        element.style.height = `${Math.max(height, 240)}px`;
      });
    };
    const top = element.getBoundingClientRect().top + window.scrollY;
    element.style.height = `${Math.max((viewport?.height ?? window.innerHeight) - top, 240)}px`;
    window.addEventListener("resize", fit);
    viewport?.addEventListener("resize", fit);
    // Content above (a banner appearing or wrapping) moves the element's top.
    const observer = new ResizeObserver(fit);
    observer.observe(document.body);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("resize", fit);
      viewport?.removeEventListener("resize", fit);
      observer.disconnect();
    };
  }, [ref]);
}
