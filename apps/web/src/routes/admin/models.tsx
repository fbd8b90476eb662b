import type { ModelDownload } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { BackupsPanel } from "../../features/admin-backups/backups-panel.tsx";
import { ActiveModelCard } from "../../features/admin-models/active-model-card.tsx";
import { adminModelsQuery, useActivateModel, useCurrentDownload } from "../../features/admin-models/api.ts";
import { DownloadPanel } from "../../features/admin-models/download-panel.tsx";
import { CatalogList, InstalledModels } from "../../features/admin-models/model-lists.tsx";
import { LocalServers, RealModelCommand } from "../../features/admin-models/real-model.tsx";
import { UrlDownloadForm } from "../../features/admin-models/url-download-form.tsx";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";

/** Operator page: the model chats use, downloading real ones, and switching between them. */
export default function AdminModelsScreen() {
  const models = useQuery(adminModelsQuery);
  const current = useCurrentDownload();
  const activate = useActivateModel();
  const [startedAt, setStartedAt] = useState<string | null>(null);

  const data = models.data;
  // The polled state is fresher than the overview's copy.
  const download = current.data !== undefined ? current.data : (data?.download ?? null);
  const running = download?.status === "running";
  const use = data && !data.settings_lock ? (id: string) => activate.mutate({ id }) : null;
  const onStarted = (state: ModelDownload) => setStartedAt(state.started_at);

  return (
    <Page width="medium">
      <PageHeader
        title="Models"
        description="The AI model this server chats with. Download a real one and switch to it; no restart needed."
      />

      {models.isPending ? (
        <PageSpinner label="Loading models" />
      ) : !data ? (
        <Banner
          tone="danger"
          title="Couldn't load the models"
          action={
            <Button size="sm" variant="outline" onClick={() => models.refetch()}>
              Try again
            </Button>
          }
        >
          {errorMessage(models.error)}
        </Banner>
      ) : (
        <div className="flex flex-col gap-8">
          {data.settings_lock ? <Banner tone="info">{data.settings_lock}</Banner> : null}
          <ActiveModelCard active={data.active} />
          {data.active.is_demo && !data.settings_lock ? (
            <section aria-labelledby="real-model-heading" className="flex flex-col gap-3">
              <h2 id="real-model-heading" className="text-lg font-semibold">
                Get a real model in one step
              </h2>
              <RealModelCommand command={data.real_model_command} />
            </section>
          ) : null}
          <LocalServers locked={Boolean(data.settings_lock)} />
          {download ? (
            <DownloadPanel
              download={download}
              focus={startedAt === download.started_at}
              onUse={use ? () => use(download.id) : null}
              usePending={activate.isPending && activate.variables?.id === download.id}
              isActive={data.active.id === download.id && download.status === "done"}
            />
          ) : null}
          <InstalledModels
            models={data.installed}
            onUse={use}
            pendingId={activate.isPending ? (activate.variables?.id ?? null) : null}
            error={activate.error}
          />
          <CatalogList models={data.catalog} download={download} onStarted={onStarted} />
          <UrlDownloadForm busy={running} onStarted={onStarted} />
          <BackupsPanel />
        </div>
      )}
    </Page>
  );
}
