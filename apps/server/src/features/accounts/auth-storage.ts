/**
 * better-auth keeps each call's state in AsyncLocalStorage (its endpoint context, its adapter
 * and its request state). On Node 20 and 22 a storage, once `run()` enables it, makes async_hooks
 * follow every promise the process creates, whoever creates it: about 100 ns more per `await`,
 * and 6-8% of a process streaming 200 replies (docs/PERFORMANCE.md), though Hearth calls
 * better-auth only to sign in, sign up, change a password or look up an unusual session
 * (session-lookup.ts serves the rest without it).
 *
 * So every call into better-auth goes through `withinAuth`, and once none has run for
 * `idleMs` (2 s) its storages are disabled: the hooks go off with them, and the next call's `run()`
 * enables them again. A storage is never disabled while a call is under way, so no better-auth
 * code finds its context gone (what it starts in the background and leaves running past the
 * idle time, such as a mail being sent, reads no context).
 */
import type { AsyncLocalStorage } from "node:async_hooks";

let idleMs = 2000;
const GLOBAL = Symbol.for("better-auth:global");
const STORAGES = ["endpointContextAsyncStorage", "adapterAsyncStorage", "requestStateAsyncStorage"];

let active = 0;
let idleTimer: NodeJS.Timeout | null = null;

/** Runs one call into better-auth; its storages go quiet once no call has run for a while. */
export async function withinAuth<T>(call: () => Promise<T> | T): Promise<T> {
  active += 1;
  if (idleTimer) {
    clearTimeout(idleTimer);
    idleTimer = null;
  }
  try {
    return await call();
  } finally {
    active -= 1;
    if (active === 0) {
      idleTimer = setTimeout(quietAuthStorage, idleMs);
      idleTimer.unref();
    }
  }
}

/** Disables better-auth's storages if no call is under way; answers how many it disabled. */
export function quietAuthStorage(): number {
  idleTimer = null;
  if (active > 0) return 0;
  const context = (globalThis as Record<symbol, { context?: Record<string, unknown> } | undefined>)[GLOBAL]
    ?.context;
  let disabled = 0;
  for (const name of STORAGES) {
    const storage = context?.[name] as AsyncLocalStorage<unknown> | undefined;
    if (storage && typeof storage.disable === "function") {
      storage.disable();
      disabled += 1;
    }
  }
  return disabled;
}

/**
 * Sets how long the storages stay enabled after the last call; answers the previous value.
 * Tests that look at the storages between calls set it long, so a slow machine's pause between
 * two steps does not quiet them behind the test's back.
 */
export function setAuthIdleMs(ms: number): number {
  const previous = idleMs;
  idleMs = ms;
  return previous;
}

/** How many calls into better-auth are under way (tests). */
export function authCallsActive(): number {
  return active;
}

interface AuthLike {
  handler: (request: Request) => Promise<Response>;
  api: object;
  $context: Promise<{ internalAdapter: object }>;
}

/**
 * The same auth object, each of its ways in (the handler, every `api` method, the context's
 * internal adapter) passing through `withinAuth`.
 */
export function quietWhenIdle<A extends AuthLike>(auth: A): A {
  const handler = auth.handler;
  const api = wrapMethods(auth.api);
  const context = auth.$context.then((ctx) => {
    const internalAdapter = wrapMethods(ctx.internalAdapter);
    return new Proxy(ctx, {
      get: (target, key, receiver) =>
        key === "internalAdapter" ? internalAdapter : Reflect.get(target, key, receiver),
    });
  });
  // A rejected context is better-auth's own failure to start; it surfaces where it is awaited.
  context.catch(() => {});
  return Object.assign(Object.create(Object.getPrototypeOf(auth)), auth, {
    handler: (request: Request) => withinAuth(() => handler(request)),
    api,
    $context: context,
  }) as A;
}

/** An object whose functions run through `withinAuth` (other properties as they are). */
function wrapMethods<T extends object>(target: T): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== "function") return value;
      let fn = wrapped.get(key);
      if (!fn) {
        const call = (...args: unknown[]) => withinAuth(() => value.apply(object, args));
        fn = Object.assign(call, value);
        wrapped.set(key, fn);
      }
      return fn;
    },
  });
}
