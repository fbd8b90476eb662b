import { DropdownMenu as Menu } from "radix-ui";
import {
  type ComponentProps,
  createContext,
  type Ref,
  useCallback,
  useContext,
  useRef,
  useState,
} from "react";
import { cn } from "./cn.ts";

const landmarks =
  'main, header, nav, aside, footer, [role="main"], [role="banner"], [role="navigation"], [role="complementary"], [role="contentinfo"]';

/**
 * Where an open menu goes in the page: the landmark its button is in (the top bar, the main
 * content), so its items are inside a landmark like the rest of the page (axe's region rule)
 * rather than loose at the end of <body>. Found from the button when it mounts.
 */
const MenuHome = createContext<((home: HTMLElement | null) => void) | null>(null);
const MenuContainer = createContext<HTMLElement | null>(null);

/**
 * Non-modal by default: a modal menu hides the rest of the page with aria-hidden while focus can
 * still reach it (axe's aria-hidden-focus), and a click outside only closes the menu instead of
 * doing what was clicked.
 */
export function DropdownMenu({ modal = false, ...props }: ComponentProps<typeof Menu.Root>) {
  const [home, setHome] = useState<HTMLElement | null>(null);
  return (
    <MenuHome.Provider value={setHome}>
      <MenuContainer.Provider value={home}>
        <Menu.Root modal={modal} {...props} />
      </MenuContainer.Provider>
    </MenuHome.Provider>
  );
}
export function DropdownMenuTrigger({ ref, ...props }: ComponentProps<typeof Menu.Trigger>) {
  const setHome = useContext(MenuHome);
  const found = useCallback(
    (element: HTMLButtonElement | null) => {
      if (element) setHome?.(element.closest<HTMLElement>(landmarks));
      if (typeof ref === "function") ref(element);
      else if (ref) (ref as { current: HTMLButtonElement | null }).current = element;
    },
    [ref, setHome],
  );
  return <Menu.Trigger ref={found as Ref<HTMLButtonElement>} {...props} />;
}

/** The menu's button, found from the content Radix labels with it. */
function triggerOf(content: EventTarget | null): HTMLElement | null {
  if (!(content instanceof Element)) return null;
  const trigger = document.getElementById(content.getAttribute("aria-labelledby") ?? "");
  return trigger instanceof HTMLElement ? trigger : null;
}

/** Focus on nothing a person would tab to: the body, or a container focusable from code only (main). */
function nowhere(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active.getAttribute("tabindex") === "-1";
}

export function DropdownMenuContent({
  className,
  sideOffset = 6,
  onInteractOutside,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof Menu.Content>) {
  const clickedAway = useRef(false);
  const container = useContext(MenuContainer);
  return (
    <Menu.Portal container={container ?? undefined}>
      <Menu.Content
        sideOffset={sideOffset}
        className={cn(
          "z-50 min-w-56 rounded-xl border border-border bg-surface p-1.5 text-fg shadow-pop animate-pop-in",
          className,
        )}
        onInteractOutside={(event) => {
          clickedAway.current = true;
          onInteractOutside?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          const away = clickedAway.current;
          clickedAway.current = false;
          if (event.defaultPrevented) return;
          event.preventDefault();
          const trigger = triggerOf(event.target);
          // Escape or a chosen item: back to the menu's button (a dialog the item opens then
          // takes focus, and gives it back to this button when it closes).
          if (!away) {
            trigger?.focus({ preventScroll: true });
            return;
          }
          // A click outside focuses what it landed on; on plain page focus would fall to the body
          // (or <main>), so then the button gets it back (after the click's own focus change).
          setTimeout(() => {
            if (nowhere()) trigger?.focus({ preventScroll: true });
          }, 0);
        }}
        {...props}
      />
    </Menu.Portal>
  );
}

/**
 * The highlighted item (arrow keys or pointer) is ringed in the focus colour: a tint alone is
 * about 1.1:1 against the menu, under the 3:1 a focus indicator needs (WCAG 1.4.11).
 */
export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof Menu.Item>) {
  return (
    <Menu.Item
      className={cn(
        "flex cursor-pointer items-center gap-2.5 rounded-md px-2.5 py-2 text-sm outline-none select-none",
        "data-highlighted:bg-surface-2 data-highlighted:ring-2 data-highlighted:ring-ring data-highlighted:ring-inset",
        "data-disabled:pointer-events-none data-disabled:opacity-50",
        "[&_svg]:size-4 [&_svg]:text-muted",
        className,
      )}
      {...props}
    />
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof Menu.Label>) {
  return <Menu.Label className={cn("px-2.5 py-2", className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof Menu.Separator>) {
  return <Menu.Separator className={cn("my-1.5 h-px bg-border", className)} {...props} />;
}
