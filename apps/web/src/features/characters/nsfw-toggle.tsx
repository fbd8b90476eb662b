import { useShowNsfw } from "./preferences.ts";

/** A switch for showing NSFW characters (kept on this device). */
export function NsfwToggle() {
  const [show, setShow] = useShowNsfw();
  return (
    <button
      type="button"
      role="switch"
      aria-checked={show}
      onClick={() => setShow(!show)}
      className="inline-flex h-10 shrink-0 cursor-pointer items-center gap-2 rounded-lg border border-border-strong px-3 text-sm transition hover:bg-surface-2"
    >
      <span
        aria-hidden
        className={
          "relative h-5 w-9 rounded-full transition " +
          (show ? "bg-accent" : "bg-surface-2 ring-1 ring-border-strong")
        }
      >
        <span
          className={
            "absolute top-0.5 size-4 rounded-full bg-white shadow transition-all " +
            (show ? "left-[1.125rem]" : "left-0.5")
          }
        />
      </span>
      NSFW
    </button>
  );
}
