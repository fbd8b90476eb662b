import { accountEndpoints } from "@hearth/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { modelsForChoiceQuery, modelsQuery } from "../features/chat/api.ts";
import { forgetModelChoice } from "../features/chat/preferences.ts";
import { defaultModelQuery } from "../features/profile/api.ts";
import { LoadErrorBanner } from "../features/shell/load-error-banner.tsx";
import { errorMessage } from "../lib/api.ts";
import { call } from "../lib/client.ts";
import { useMe } from "../lib/session.ts";
import { Button } from "../ui/button.tsx";
import { Select } from "../ui/input.tsx";
import { Field } from "../ui/label.tsx";
import { Page, PageHeader } from "../ui/page.tsx";
import { PageSpinner } from "../ui/spinner.tsx";

/** The Settings page: the default or an experimental model for new chats, among those offered. */
export default function SettingsScreen() {
  const queryClient = useQueryClient();
  const me = useMe();
  const current = useQuery(defaultModelQuery);
  const models = useQuery(modelsForChoiceQuery(null));
  const [choice, setChoice] = useState<string | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const selected = choice ?? current.data?.model_id ?? "";
  const save = async () => {
    setSaving(true);
    setStatus(null);
    try {
      await call(accountEndpoints.setDefaultModel, { body: { model_id: selected || null } });
      // A model picked in a chat on this device would outrank the new default here: it gives way.
      if (me) forgetModelChoice(me.id);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: defaultModelQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: modelsQuery.queryKey }),
      ]);
      setStatus({ ok: true, text: "Saved. New chats start with this model." });
    } catch (caught) {
      setStatus({ ok: false, text: errorMessage(caught) });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Page width="narrow">
      <PageHeader title="Settings" description="Choose the model your new chats start with." />
      {current.isPending || models.isPending ? (
        <PageSpinner label="Loading your settings" />
      ) : current.isError || models.isError ? (
        <LoadErrorBanner
          title="Your settings couldn't be loaded"
          error={current.error ?? models.error}
          onRetry={() => {
            void current.refetch();
            void models.refetch();
          }}
        />
      ) : (
        <div className="flex flex-col gap-4">
          <Field id="default-model" label="Model for new chats">
            <Select id="default-model" value={selected} onChange={(e) => setChoice(e.target.value)}>
              <option value="">Server default</option>
              {models.data.models.map((m) => (
                <option key={m.id} value={m.id} disabled={!m.available}>
                  {m.name}
                  {m.tags.includes("experimental") ? " (experimental)" : ""}
                  {m.available ? "" : " (not in your plan)"}
                </option>
              ))}
            </Select>
          </Field>
          <div>
            <Button onClick={() => void save()} loading={saving}>
              Save
            </Button>
          </div>
          {status ? (
            <p
              role={status.ok ? "status" : "alert"}
              className={status.ok ? "text-sm text-success" : "text-sm text-danger"}
            >
              {status.text}
            </p>
          ) : null}
        </div>
      )}
    </Page>
  );
}
