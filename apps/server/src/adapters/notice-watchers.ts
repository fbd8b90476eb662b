/**
 * A watch's registration, shared by the adapters: a taker of `name`'s first notice in
 * `watchers` until one comes or `signal` aborts (then null); `started` runs once it is in place
 * (the Redis bus reads a kept notice then).
 */
export function watchFor<T>(
  watchers: Map<string, Set<(data: unknown) => void>>,
  name: string,
  signal: AbortSignal,
  started?: (take: (data: unknown) => void) => void,
): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise<T | null>((resolve) => {
    let set = watchers.get(name);
    if (!set) {
      set = new Set();
      watchers.set(name, set);
    }
    const own = set;
    const take = (data: unknown) => {
      if (!own.delete(take)) return;
      if (own.size === 0 && watchers.get(name) === own) watchers.delete(name);
      signal.removeEventListener("abort", onAbort);
      resolve(data as T | null);
    };
    const onAbort = () => take(null);
    own.add(take);
    signal.addEventListener("abort", onAbort, { once: true });
    started?.(take);
  });
}
