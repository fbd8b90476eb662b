import type {
  AdminCatalogModel,
  AdminInstalledModel,
  ModelDownload,
  ModelDownloadRequest,
} from "@hearth/contract";
import { Download, HardDrive } from "lucide-react";
import type { ReactNode } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { useStartDownload } from "./api.ts";
import { formatBytes } from "./format.ts";

function ModelRow({
  nameId,
  name,
  badges,
  details,
  action,
}: {
  nameId: string;
  name: string;
  badges?: ReactNode;
  details: ReactNode;
  action: ReactNode;
}) {
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-border bg-surface p-4 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
      <div className="flex min-w-0 flex-col gap-1">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span id={nameId} className="font-medium break-words">
            {name}
          </span>
          {badges}
        </p>
        <p className="text-sm text-muted">{details}</p>
      </div>
      <div className="flex shrink-0 items-center">{action}</div>
    </li>
  );
}

interface InstalledModelsProps {
  models: AdminInstalledModel[];
  /** Null when the operator's settings choose the model (the buttons are disabled then). */
  onUse: ((id: string) => void) | null;
  /** The model being made active right now. */
  pendingId: string | null;
  error: unknown;
}

/** The bundled model and every finished download, each with 'Use this model'. */
export function InstalledModels({ models, onUse, pendingId, error }: InstalledModelsProps) {
  return (
    <section aria-labelledby="installed-heading" className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id="installed-heading" className="text-lg font-semibold">
          On this server
        </h2>
        <p className="text-sm text-muted">Switching takes effect at once: no restart needed.</p>
      </div>
      {error ? (
        <Banner tone="danger" title="Couldn't switch the model">
          {errorMessage(error)}
        </Banner>
      ) : null}
      {models.length === 0 ? (
        <EmptyState icon={HardDrive} title="No models on disk yet">
          Download one from the list below.
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-3">
          {models.map((model) => {
            const nameId = `installed-${model.id}`;
            return (
              <ModelRow
                key={model.id}
                nameId={nameId}
                name={model.name}
                badges={
                  <>
                    {model.active ? <Badge tone="success">Active</Badge> : null}
                    {model.bundled ? <Badge tone="info">Demo</Badge> : null}
                  </>
                }
                details={`${model.description} ${formatBytes(model.bytes)}.`}
                action={
                  model.active ? null : (
                    <Button
                      size="sm"
                      variant="outline"
                      aria-describedby={nameId}
                      disabled={!onUse || (pendingId !== null && pendingId !== model.id)}
                      loading={pendingId === model.id}
                      onClick={() => onUse?.(model.id)}
                    >
                      Use this model
                    </Button>
                  )
                }
              />
            );
          })}
        </ul>
      )}
    </section>
  );
}

interface CatalogListProps {
  models: AdminCatalogModel[];
  download: ModelDownload | null;
  onStarted: (state: ModelDownload) => void;
}

/** Models Hearth knows how to download by name, with their size, context and licence. */
export function CatalogList({ models, download, onStarted }: CatalogListProps) {
  const start = useStartDownload();
  const running = download?.status === "running";
  const begin = (request: ModelDownloadRequest) => start.mutate(request, { onSuccess: onStarted });

  return (
    <section aria-labelledby="catalog-heading" className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id="catalog-heading" tabIndex={-1} className="scroll-mt-20 text-lg font-semibold outline-none">
          Download a model
        </h2>
        <p className="text-sm text-muted">
          Chat models that run well on a CPU. Bigger models write better replies but need more memory and
          answer more slowly. Read a model's licence before you use it commercially.
        </p>
      </div>
      {start.error ? (
        <Banner tone="danger" title="Couldn't start the download">
          {errorMessage(start.error)}
        </Banner>
      ) : null}
      <ul className="flex flex-col gap-3">
        {models.map((model) => {
          const nameId = `catalog-${model.id}`;
          const thisOne = running && download?.id === model.id;
          return (
            <ModelRow
              key={model.id}
              nameId={nameId}
              name={model.name}
              details={
                <>
                  About {formatBytes(model.approx_bytes)} · {model.context_tokens / 1024}K context · Licence:{" "}
                  {model.licence}
                  {model.partial_bytes !== null ? (
                    <> · {formatBytes(model.partial_bytes)} downloaded so far</>
                  ) : null}
                </>
              }
              action={
                model.downloaded ? (
                  <Badge tone="success">Downloaded</Badge>
                ) : thisOne ? (
                  <Badge tone="info">Downloading…</Badge>
                ) : (
                  <Button
                    size="sm"
                    aria-describedby={nameId}
                    disabled={running || start.isPending}
                    loading={start.isPending && start.variables?.id === model.id}
                    onClick={() => begin({ id: model.id })}
                  >
                    {start.isPending && start.variables?.id === model.id ? null : <Download aria-hidden />}
                    {model.partial_bytes !== null ? "Resume download" : "Download"}
                  </Button>
                )
              }
            />
          );
        })}
      </ul>
      {running ? (
        <p className="text-sm text-muted">
          One download runs at a time: the buttons wait for the current one.
        </p>
      ) : null}
    </section>
  );
}
