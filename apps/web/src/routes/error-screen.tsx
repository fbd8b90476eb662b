import type { AppConfig } from "@hearth/contract";
import { useQueryClient } from "@tanstack/react-query";
import { type ErrorComponentProps, useRouter } from "@tanstack/react-router";
import { ArrowLeft, Check, Copy, RefreshCw, Sparkles, TriangleAlert, WifiOff } from "lucide-react";
import { useEffect, useState } from "react";
import { appConfigQuery } from "../lib/session.ts";
import { Button } from "../ui/button.tsx";

/**
 * Errors a browser raises when a lazily loaded chunk is missing, which after a deploy means the
 * page is older than the server: a reload fixes it.
 */
const staleChunkPatterns = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Unable to preload CSS/i,
  /Loading (CSS )?chunk [\w-]+ failed/i,
];

export function isStaleChunkError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return staleChunkPatterns.some((pattern) => pattern.test(message));
}

function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener("online", update);
    window.addEventListener("offline", update);
    return () => {
      window.removeEventListener("online", update);
      window.removeEventListener("offline", update);
    };
  }, []);
  return online;
}

function debugReport(error: unknown, serverVersion: string | undefined): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return [
    `Error: ${message}`,
    `Route: ${window.location.pathname}${window.location.search}`,
    `Version: ${serverVersion ?? "unknown"} (web ${__WEB_VERSION__})`,
    `Time: ${new Date().toISOString()}`,
    `User agent: ${navigator.userAgent}`,
  ].join("\n");
}

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API needs a secure context; plain-http self-hosted installs fall back here.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    return copied;
  }
}

/** The heading stays the spec's; the icon and the explanation say what kind of failure it was. */
function variantFor(error: unknown, online: boolean) {
  if (!online) {
    return {
      icon: WifiOff,
      headline: "You're offline",
      text: "This page couldn't load because your device has no connection. Reconnect, then reload.",
    };
  }
  if (isStaleChunkError(error)) {
    return {
      icon: Sparkles,
      headline: "A new version is available",
      text: "This app was updated since you opened it. Reload to get the new version.",
    };
  }
  return {
    icon: TriangleAlert,
    headline: null,
    text: "An unexpected error stopped this page. Reloading usually helps; if it keeps happening, send the debug info below to whoever runs this server.",
  };
}

/** Route failures (chat-and-characters §2 Error screen): works even when config never loaded. */
export function ErrorScreen({ error }: Pick<ErrorComponentProps, "error">) {
  const router = useRouter();
  const online = useOnline();
  const config = useQueryClient().getQueryData<AppConfig>(appConfigQuery.queryKey);
  const [copied, setCopied] = useState(false);
  const report = debugReport(error, config?.version);
  const variant = variantFor(error, online);

  useEffect(() => {
    console.error(error);
  }, [error]);

  const goBack = () => {
    if (window.history.length > 1) router.history.back();
    else window.location.assign("/");
  };

  return (
    <div className="flex flex-1 items-center justify-center px-4 py-10 sm:py-16">
      <div role="alert" className="flex w-full max-w-xl flex-col items-center gap-5 text-center">
        <span className="flex size-14 items-center justify-center rounded-full bg-accent-soft text-accent-text">
          <variant.icon aria-hidden className="size-7" />
        </span>
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight">Uh oh, something went wrong</h1>
          {variant.headline ? (
            <p className="text-lg font-medium text-accent-text">{variant.headline}</p>
          ) : null}
          <p className="text-muted">{variant.text}</p>
        </div>
        <div className="flex flex-wrap justify-center gap-2">
          <Button onClick={() => window.location.reload()}>
            <RefreshCw aria-hidden />
            Reload
          </Button>
          <Button variant="outline" onClick={goBack}>
            <ArrowLeft aria-hidden />
            Go Back
          </Button>
        </div>
        <details className="w-full rounded-xl border border-border bg-surface text-left">
          <summary className="cursor-pointer rounded-xl px-4 py-3 text-sm font-medium">Debug info</summary>
          <div className="flex flex-col gap-3 border-t border-border p-4">
            <pre className="overflow-x-auto rounded-lg bg-bg p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap break-all text-muted">
              {report}
            </pre>
            <Button
              variant="secondary"
              size="sm"
              className="self-start"
              onClick={() => copyText(report).then(setCopied)}
            >
              {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
              {copied ? "Copied" : "Copy"}
            </Button>
          </div>
        </details>
      </div>
    </div>
  );
}
