import { useEffect, useState } from "react";

/**
 * Copies text to the clipboard and reports it for `confirmMs` (the spec's 2-second "Copied"), or
 * that the browser refused (an insecure origin), so the person can copy by hand.
 */
export function useCopy(confirmMs = 2000) {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), confirmMs);
    return () => clearTimeout(timer);
  }, [copied, confirmMs]);

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  };

  return { copied, failed, copy };
}
