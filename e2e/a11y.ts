import { appendFileSync } from "node:fs";
import axe from "axe-core";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { expect } from "vitest";

/**
 * The accessibility check of issue 20, run by the harness on every page it makes (newPage):
 * axe-core with the WCAG 2.0/2.1 A and AA rules and best practices, on each distinct screen state
 * a test reaches, at 1280 px and 390 px in the light and dark theme, plus a reflow check at
 * 320 px (WCAG 1.4.10: no horizontal scrolling). A violation fails the test with the rule and
 * the elements.
 *
 * Covered by visiting: before each action a test takes (goto, click, fill, a key press, closing
 * the context…) the page's state is named by its route (ids left out) and the dialogs and menus
 * open on it. A name not seen before in this test file is checked; the test waits meanwhile, so
 * nothing moves under axe. Checking once per file and state keeps the cost down (CI has 2 cores).
 *
 * HEARTH_E2E_A11Y=off turns it off (to measure what it costs); HEARTH_E2E_A11Y_LOG=<file> appends
 * one line per check with its duration.
 */

const tags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

type Theme = "light" | "dark";
interface Variant {
  width: number;
  height: number;
  theme: Theme;
}
const variants: Variant[] = [
  { width: 1280, height: 800, theme: "dark" },
  { width: 1280, height: 800, theme: "light" },
  { width: 390, height: 844, theme: "dark" },
  { width: 390, height: 844, theme: "light" },
];
/** WCAG 1.4.10 Reflow: 320 CSS px wide (1280 px at 400% zoom), and 1280 × 800 at 200% zoom. */
const reflows = [
  { width: 320, height: 640 },
  { width: 640, height: 400 },
];

interface Watched {
  origin: string;
  /** The media the test itself set (the context's, then page.emulateMedia's), put back after a check. */
  colorScheme: Theme;
  reducedMotion: "reduce" | "no-preference" | null;
  checking: boolean;
}

const watched = new WeakMap<Page, Watched>();
/** States already checked. Each test file runs in its own worker, so this is per file. */
const seen = new Set<string>();

export const a11yEnabled = process.env.HEARTH_E2E_A11Y !== "off";

/** Checks a page made by newPage from now on, before every action a test takes on it. */
export function watchA11y(page: Page, context: BrowserContext, origin: string, colorScheme: Theme): void {
  if (!a11yEnabled) return;
  watched.set(page, { origin, colorScheme, reducedMotion: null, checking: false });
  patchPage(page);
  patchContext(context);
  patchLocators(page.locator("html"));
}

/**
 * Checks the page's current state now (once per state and test file), for a state no action
 * follows. Throws on a violation.
 */
export async function checkA11y(page: Page): Promise<void> {
  const entry = watched.get(page);
  if (!entry || entry.checking || page.isClosed()) return;
  entry.checking = true;
  // A check that never ends would show only as the test's own timeout minutes later, with no
  // word of where it stuck (a CI run once did): it fails after two minutes, naming its step.
  const progress: Progress = { step: "naming the state", state: "" };
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, fail) => {
    timer = setTimeout(
      () =>
        fail(
          new Error(
            `The accessibility check of ${progress.state ? `"${progress.state}"` : "a state not yet named"} did not end in ${checkLimitMs / 1000} s (${progress.step}).`,
          ),
        ),
      checkLimitMs,
    );
  });
  try {
    await Promise.race([checkState(page, entry, progress), stuck]);
  } finally {
    clearTimeout(timer);
    entry.checking = false;
  }
}

const checkLimitMs = 120_000;
interface Progress {
  step: string;
  state: string;
}

// ---------------------------------------------------------------------------------------------
// Hooks: the check runs before each action, so every state a test acts in (or leaves) is seen.

const pageActions = ["goto", "reload", "goBack", "goForward", "close"] as const;
const keyboardActions = ["press", "type", "insertText"] as const;
const mouseActions = ["click", "dblclick", "wheel", "down"] as const;
const locatorActions = [
  "click",
  "dblclick",
  "fill",
  "clear",
  "press",
  "pressSequentially",
  "type",
  "check",
  "uncheck",
  "setChecked",
  "selectOption",
  "setInputFiles",
  "hover",
  "tap",
  "focus",
  "blur",
  "dragTo",
  "selectText",
] as const;

type Method = (...args: unknown[]) => Promise<unknown>;

function wrap(target: object, names: readonly string[], pageOf: (self: object) => Page | null): void {
  const record = target as Record<string, Method>;
  for (const name of names) {
    const original = record[name];
    if (typeof original !== "function") continue;
    record[name] = async function (this: object, ...args: unknown[]) {
      const page = pageOf(this);
      if (page) await checkA11y(page);
      return original.apply(this, args);
    };
  }
}

/** page.emulateMedia as Playwright has it, for the check's own changes (not the test's). */
const emulateMediaOf = new WeakMap<Page, Page["emulateMedia"]>();

function patchPage(page: Page): void {
  // Every document the page loads gets the checks' helpers before its own scripts run.
  page.addInitScript(installPageHelpers).catch(() => undefined);
  const emulateMedia = page.emulateMedia.bind(page);
  emulateMediaOf.set(page, emulateMedia);
  page.emulateMedia = async (options = {}) => {
    const entry = watched.get(page);
    if (entry && options.colorScheme) entry.colorScheme = options.colorScheme === "light" ? "light" : "dark";
    if (entry && options.reducedMotion !== undefined) entry.reducedMotion = options.reducedMotion;
    return emulateMedia(options);
  };
  wrap(page, pageActions, () => page);
  wrap(page.keyboard, keyboardActions, () => page);
  wrap(page.mouse, mouseActions, () => page);
}

const patchedContexts = new WeakSet<BrowserContext>();
function patchContext(context: BrowserContext): void {
  if (patchedContexts.has(context)) return;
  patchedContexts.add(context);
  const close = context.close.bind(context);
  // The last state of each page, which no action follows.
  context.close = async (options) => {
    for (const page of context.pages()) await checkA11y(page);
    return close(options);
  };
}

let locatorsPatched = false;
function patchLocators(sample: Locator): void {
  if (locatorsPatched) return;
  locatorsPatched = true;
  wrap(Object.getPrototypeOf(sample) as object, locatorActions, (self) => (self as Locator).page());
}

// ---------------------------------------------------------------------------------------------
// The check

/** What the page-side functions below share (installPageHelpers puts it on `window.__a11y`). */
interface PageHelpers {
  /** Two frames, or 200 ms if the page draws none (rAF stops for a page Chromium does not paint). */
  frames(): Promise<void>;
  /** The dialogs and menus shown (a closed one kept in the page is not a screen). */
  shownLayers(): Element[];
  /** Waits up to `ms` while the screen is still loading: a page spinner, or no heading yet. */
  loaded(ms: number): Promise<void>;
  /** Sets the theme, then waits (up to 1 s) for layout and any finite animation to finish. */
  settle(theme: string): Promise<void>;
}

/**
 * In the page, on every document (an init script) and once on the one already shown: the helpers
 * the checks share. page.evaluate sends a function's text alone, so they cannot share code by
 * closure or import.
 */
function installPageHelpers(): void {
  const holder = window as unknown as { __a11y?: PageHelpers };
  if (holder.__a11y) return;
  const frames = () =>
    new Promise<void>((done) => {
      requestAnimationFrame(() => requestAnimationFrame(() => done()));
      setTimeout(done, 200);
    });
  const shownLayers = () =>
    Array.from(document.querySelectorAll('[role="dialog"], [role="alertdialog"], [role="menu"]')).filter(
      (element) => element.getClientRects().length > 0,
    );
  // The main region is busy while the router loads the next screen (the old one still shown);
  // every screen has a level-one heading or a layer once it is there.
  const loading = () =>
    document.querySelector('[data-page-spinner], #main[aria-busy="true"]') !== null ||
    !(document.querySelector("h1") || shownLayers().length > 0);
  holder.__a11y = {
    frames,
    shownLayers,
    async loaded(ms) {
      const deadline = performance.now() + ms;
      while (loading() && performance.now() < deadline) await frames();
    },
    async settle(theme) {
      document.documentElement.dataset.theme = theme;
      const deadline = performance.now() + 1_000;
      for (;;) {
        await frames();
        const moving = document
          .getAnimations()
          .some(
            (animation) =>
              animation.playState === "running" &&
              Number.isFinite(animation.effect?.getTiming().iterations ?? 1),
          );
        if (!moving || performance.now() > deadline) return;
      }
    },
  };
}

/**
 * Names the state: the route with ids left out, and the open dialogs and menus with their names.
 * Two frames first, so a click's re-render has landed, and up to 15 s for a screen still loading
 * (a page spinner, or no level-one heading yet: every screen has one once it is there). 5 s was
 * not always enough on two cores busy with other test files: a test that moves on before its
 * screen has drawn then failed `page-has-heading-one` on the loading state. Null for
 * a page that is not Hearth's app (another site, or an API answer shown as a page).
 */
async function stateName(origin: string): Promise<string | null> {
  const helpers = (window as unknown as { __a11y: PageHelpers }).__a11y;
  await helpers.frames();
  if (location.origin !== origin || !document.getElementById("root")) return null;
  await helpers.loaded(15_000);
  const route = location.pathname
    .split("/")
    // Ids (UUIDs, draft-1a2b3c…) and anything else with digits in it.
    .map((part) => (/\d/.test(part) && (part.length >= 6 || /^\d+$/.test(part)) ? ":id" : part))
    .join("/");
  const nameOf = (element: Element) => {
    const ids = element.getAttribute("aria-labelledby");
    const text = ids
      ? ids
          .split(/\s+/)
          .map((id) => {
            const label = document.getElementById(id);
            return label?.getAttribute("aria-label") ?? label?.textContent ?? "";
          })
          .join(" ")
      : (element.getAttribute("aria-label") ?? "");
    return `${element.getAttribute("role")} "${text.trim().slice(0, 60)}"`;
  };
  const layers = helpers.shownLayers().map(nameOf);
  return [route, ...layers].join(" + ");
}

async function checkState(page: Page, entry: Watched, progress: Progress): Promise<void> {
  let name: string | null;
  try {
    await page.evaluate(installPageHelpers);
    name = await page.evaluate(stateName, entry.origin);
  } catch {
    // Navigating this very moment: the next action sees where it went.
    return;
  }
  if (name === null || seen.has(name)) return;
  seen.add(name);
  progress.state = name;

  const started = performance.now();
  const emulate = emulateMediaOf.get(page) ?? page.emulateMedia.bind(page);
  const original = page.viewportSize();
  const theme = await page.evaluate(() => document.documentElement.dataset.theme ?? "dark");
  // The check must leave the page as it found it: the viewport changes can move a menu under the
  // pointer, and the browser's hover then moves focus to another item (Chromium 156 does).
  await page.evaluate(() => {
    (window as unknown as { __a11yFocus?: Element | null }).__a11yFocus = document.activeElement;
  });
  const problems: string[] = [];
  try {
    if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
    // The page's own size first: no resize at all when it is already one of the variants.
    const ordered = [...variants].sort(
      (a, b) => Number(b.width === original?.width) - Number(a.width === original?.width),
    );
    for (const variant of ordered) {
      progress.step = `axe at ${variant.width} px, ${variant.theme}`;
      await page.setViewportSize({ width: variant.width, height: variant.height });
      // Reduced motion: no half-faded dialog or colour mid-transition is measured.
      await emulate({ colorScheme: variant.theme, reducedMotion: "reduce" });
      const found = await page.evaluate(runAxe, { theme: variant.theme, tags });
      if (found.length) problems.push(report(`${variant.width} px, ${variant.theme}`, found));
    }
    for (const reflow of reflows) {
      progress.step = `reflow at ${reflow.width} px`;
      await page.setViewportSize(reflow);
      const wide = await page.evaluate(overflowing);
      if (wide.length) {
        problems.push(
          `  at ${reflow.width} px the page scrolls sideways (WCAG 1.4.10 reflow); too wide:\n${wide
            .map((line) => `      ${line}`)
            .join("\n")}`,
        );
      }
    }
  } catch (error) {
    // The page went elsewhere on its own mid-check (a redirect): that state is gone, not failed.
    if (!/Execution context was destroyed|navigat|closed/i.test(String(error))) throw error;
    seen.delete(name);
    return;
  } finally {
    progress.step = "putting the page back";
    if (!page.isClosed()) {
      if (original) await page.setViewportSize(original);
      await emulate({ colorScheme: entry.colorScheme, reducedMotion: entry.reducedMotion });
      await page.evaluate(settle, theme).catch(() => undefined);
      await page
        .evaluate(() => {
          // Only a hover's move between items of one menu is undone: focus the page moved on its
          // own meanwhile (a dialog's autofocus) stays where the page put it.
          const saved = (window as unknown as { __a11yFocus?: HTMLElement | null }).__a11yFocus;
          const now = document.activeElement;
          const menu = saved?.closest('[role="menu"]');
          if (saved?.isConnected && now !== saved && menu && now && menu.contains(now))
            saved.focus({ preventScroll: true });
        })
        .catch(() => undefined);
    }
  }
  const elapsed = performance.now() - started;
  const log = process.env.HEARTH_E2E_A11Y_LOG;
  if (log) {
    const file = expect.getState().testPath?.split("/").pop() ?? "?";
    appendFileSync(log, `${file}\t${Math.round(elapsed)}\t${name}\n`);
  }
  if (problems.length) {
    throw new Error(`Accessibility problems on "${name}":\n${problems.join("\n")}`);
  }
}

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string; summary: string }>;
}

function report(where: string, found: Finding[]): string {
  return found
    .map(
      (rule) =>
        `  ${rule.id} (${rule.impact ?? "?"}, ${where}): ${rule.help}\n${rule.nodes
          .map((node) => `      ${node.target}${node.summary ? ` — ${node.summary}` : ""}`)
          .join("\n")}`,
    )
    .join("\n");
}

/** In the page: the theme set, layout done and no finite animation or transition running. */
async function settle(theme: string): Promise<void> {
  await (window as unknown as { __a11y: PageHelpers }).__a11y.settle(theme);
}

/** In the page: axe's violations, short, once the screen has loaded (as stateName waits) and settled. */
async function runAxe({ theme, tags }: { theme: string; tags: string[] }): Promise<Finding[]> {
  const helpers = (window as unknown as { __a11y: PageHelpers }).__a11y;
  document.documentElement.dataset.theme = theme;
  await helpers.loaded(15_000);
  await helpers.settle(theme);
  const engine = (window as unknown as { axe: typeof axe }).axe;
  const results = await engine.run(document, {
    runOnly: { type: "tag", values: tags },
    resultTypes: ["violations"],
  });
  return results.violations.map((rule) => ({
    id: rule.id,
    impact: rule.impact ?? null,
    help: rule.help,
    nodes: rule.nodes.slice(0, 8).map((node) => ({
      target: node.target.map(String).join(" "),
      summary: (node.failureSummary ?? "").split("\n").slice(1, 2).join(" ").trim(),
    })),
  }));
}

/** In the page: the outermost elements wider than the window, outside sideways scrollers. */
async function overflowing(): Promise<string[]> {
  await (window as unknown as { __a11y: PageHelpers }).__a11y.frames();
  const root = document.documentElement;
  if (root.scrollWidth <= root.clientWidth) return [];
  const limit = root.clientWidth + 1;
  const scrolls = (element: Element) => {
    const overflow = getComputedStyle(element).overflowX;
    return overflow === "auto" || overflow === "scroll" || overflow === "hidden" || overflow === "clip";
  };
  const found: string[] = [];
  const visit = (element: Element) => {
    if (found.length >= 6) return;
    if (element.getBoundingClientRect().right > limit) {
      const inner = Array.from(element.children).some((child) => child.getBoundingClientRect().right > limit);
      if (!inner || scrolls(element)) {
        const id = element.id ? `#${element.id}` : "";
        const classes = typeof element.className === "string" ? element.className.slice(0, 80) : "";
        found.push(
          `<${element.tagName.toLowerCase()}${id}> ${classes} (right edge ${Math.round(element.getBoundingClientRect().right)} px)`,
        );
        return;
      }
    }
    if (!scrolls(element) || element === document.body)
      for (const child of Array.from(element.children)) visit(child);
  };
  visit(document.body);
  return found.length ? found : [`the page is ${root.scrollWidth} px wide`];
}
