/** The device's theme choice is not the account's data; everything else Hearth stored goes. */
const KEPT = new Set(["hearth.theme"]);

/** Removes Hearth's local data (drafts, onboarding, banner dismissals, caches) after account deletion. */
export function clearLocalData(storage: Storage = localStorage): void {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith("hearth") && !KEPT.has(key)) keys.push(key);
  }
  for (const key of keys) storage.removeItem(key);
  sessionStorage.clear();
}
