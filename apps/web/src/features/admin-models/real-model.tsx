import type { LocalServer } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Check, Copy, RefreshCw, Server } from "lucide-react";
import { errorMessage } from "../../lib/api.ts";
import { useCopy } from "../../lib/use-copy.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { localServersQuery, useUseLocalServer } from "./api.ts";

/** The one command that downloads a real model and switches to it, with a copy button. */
export function RealModelCommand({ command }: { command: string }) {
  const { copied, failed, copy } = useCopy();
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm">In a terminal, in Hearth's folder, run:</p>
      <div className="flex items-stretch gap-2">
        {/* Wraps rather than scrolls sideways: readable at 320 px and 400% zoom (WCAG 1.4.10). */}
        <code className="min-w-0 flex-1 rounded-lg bg-surface-2 px-3 py-2 font-mono text-sm [overflow-wrap:anywhere]">
          {command}
        </code>
        <Button size="sm" variant="outline" onClick={() => void copy(command)} aria-label="Copy the command">
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
        </Button>
      </div>
      {failed ? (
        <p className="text-sm text-danger">The browser refused to copy: select the command instead.</p>
      ) : null}
      <p className="text-sm text-muted">
        It downloads about 1 GB with a progress bar; chats switch to it without a restart.
      </p>
    </div>
  );
}

/**
 * Model servers already running on this machine (Ollama, LM Studio, llama.cpp, vLLM): each
 * model one click away. Nothing is used until an administrator clicks.
 */
export function LocalServers({ locked }: { locked: boolean }) {
  const servers = useQuery(localServersQuery);
  const use = useUseLocalServer();
  const list: LocalServer[] = servers.data?.servers ?? [];
  return (
    <section aria-labelledby="local-servers-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="flex flex-col gap-1">
          <h2 id="local-servers-heading" className="text-lg font-semibold">
            Model servers on this machine
          </h2>
          <p className="text-sm text-muted">
            Ollama, LM Studio, llama.cpp's server or vLLM, if one is running here.
          </p>
        </div>
        <Button size="sm" variant="ghost" loading={servers.isFetching} onClick={() => void servers.refetch()}>
          <RefreshCw aria-hidden />
          Look again
        </Button>
      </div>
      {use.error ? (
        <Banner tone="danger" title="Couldn't switch to that model">
          {errorMessage(use.error)}
        </Banner>
      ) : null}
      {servers.isPending ? (
        <p className="text-sm text-muted">Looking…</p>
      ) : list.length === 0 ? (
        <p className="rounded-xl border border-dashed border-border-strong px-4 py-3 text-sm text-muted">
          None found. Start one (for example <code className="font-mono">ollama serve</code>) and look again.
        </p>
      ) : (
        <ul className="flex flex-col gap-3">
          {list.map((server) => (
            <li
              key={server.base_url}
              className="flex flex-col gap-2 rounded-xl border border-border bg-surface p-4"
            >
              <p className="flex items-center gap-2 font-medium">
                <Server aria-hidden className="size-4 text-accent-text" />
                {server.name}
                <span className="truncate text-sm font-normal text-muted">{server.base_url}</span>
              </p>
              <ul className="flex flex-wrap gap-2">
                {server.models.map((model) => (
                  <li key={model}>
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={locked || (use.isPending && use.variables?.model !== model)}
                      loading={use.isPending && use.variables?.model === model}
                      onClick={() => use.mutate({ base_url: server.base_url, model })}
                    >
                      Use {model}
                    </Button>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
