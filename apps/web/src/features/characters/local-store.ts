import { useCallback, useSyncExternalStore } from "react";

/**
 * Small JSON values in localStorage that React screens can subscribe to. Changes made in this
 * tab notify subscribers directly; changes made in another tab arrive through "storage" events.
 * When storage is blocked (privacy mode) values live in memory for this page only.
 */

const memory = new Map<string, string | null>();
const listeners = new Set<() => void>();

function readRaw(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return memory.get(key) ?? null;
  }
}

function writeRaw(key: string, value: string | null) {
  memory.set(key, value);
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Kept in memory only.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

/** The parsed value, or `fallback` when missing or unreadable. */
export function readStored<T>(key: string, fallback: T): T {
  const raw = readRaw(key);
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

export function writeStored(key: string, value: unknown) {
  writeRaw(key, value === undefined ? null : JSON.stringify(value));
}

export function removeStored(key: string) {
  writeRaw(key, null);
}

/**
 * Subscribes to one key. The raw string is the snapshot (stable between renders), parsed on use,
 * so object values don't make useSyncExternalStore loop.
 */
export function useStored<T>(key: string, fallback: T): [T, (value: T) => void] {
  const raw = useSyncExternalStore(
    subscribe,
    () => readRaw(key),
    () => null,
  );
  let value = fallback;
  if (raw !== null) {
    try {
      value = JSON.parse(raw) as T;
    } catch {
      value = fallback;
    }
  }
  const set = useCallback((next: T) => writeStored(key, next), [key]);
  return [value, set];
}
