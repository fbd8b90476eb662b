import type { InferenceModel } from "@hearth/contract";
import { roleTitle } from "@hearth/contract/labels";
import { useQuery } from "@tanstack/react-query";
import { Check, Lock, RotateCcw } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Spinner } from "../../ui/spinner.tsx";
import { modelsForChoiceQuery } from "./api.ts";
import { type PaidPlan, PlanRequiredDialog, planFor } from "./plan-required-dialog.tsx";
import { useModelChoice } from "./preferences.ts";

function ModelOption({
  model,
  selected,
  onChoose,
}: {
  model: InferenceModel;
  selected: boolean;
  onChoose: () => void;
}) {
  const plan = model.available ? null : planFor(model.permission);
  return (
    <li>
      <button
        type="button"
        aria-pressed={selected}
        aria-disabled={!model.available || undefined}
        data-model-id={model.id}
        onClick={onChoose}
        className={cn(
          "flex w-full items-center gap-3 rounded-lg border px-3 py-2.5 text-left transition",
          selected ? "border-accent bg-accent-soft" : "border-border-strong hover:bg-surface-2",
          !model.available && "opacity-60 hover:opacity-80",
        )}
      >
        <span className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="flex items-center gap-2">
            <span className="truncate text-sm font-medium">{model.name}</span>
            <Badge>{windowLabel(model.context_tokens)}</Badge>
            {model.is_demo ? <Badge tone="info">Demo</Badge> : null}
          </span>
          <span className="flex flex-wrap gap-1.5 text-xs text-muted">
            <span>Reads up to {model.context_tokens.toLocaleString("en-US")} tokens</span>
            {plan ? <span className="text-warning">Needs {roleTitle[plan]}</span> : null}
            {model.tags
              .filter((tag) => !(model.is_demo && tag === "demo"))
              .map((tag) => (
                <span key={tag}>#{tag}</span>
              ))}
          </span>
        </span>
        {selected ? (
          <Check aria-hidden className="size-4 shrink-0 text-accent-text" />
        ) : !model.available ? (
          <Lock aria-hidden className="size-4 shrink-0 text-muted" />
        ) : null}
      </button>
    </li>
  );
}

/** "2K", "8K", "16K": the window a conversation really gets on the model, for the badge. */
function windowLabel(tokens: number): string {
  return tokens >= 1024 ? `${Math.round(tokens / 1024)}K` : String(tokens);
}

/**
 * Choose Model (§2 modals, §4 "Model choice", §5): the models the viewer may use; the others
 * disabled, or left out when the model says so. The choice is kept on this device.
 */
export function ModelDialog({
  userId,
  open,
  onOpenChange,
}: {
  userId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [stored, store] = useModelChoice(userId);
  const models = useQuery({ ...modelsForChoiceQuery(stored), enabled: open });
  const [locked, setLocked] = useState<{ plan: PaidPlan; name: string } | null>(null);
  const list = models.data?.models.filter((model) => model.available || !model.hide_unauthorized) ?? [];

  const choose = (model: InferenceModel) => {
    if (!model.available) {
      const plan = planFor(model.permission);
      if (plan) setLocked({ plan, name: model.name });
      return;
    }
    // The viewer's default is stored as no choice, so a later change of it (Settings) reaches this device.
    store(model.id === models.data?.viewer_default_id ? null : model.id);
    onOpenChange(false);
  };

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        {open ? (
          <DialogContent title="Choose Model" description="The model that writes the replies in your chats.">
            {models.isPending ? (
              <div className="flex justify-center py-6 text-muted">
                <Spinner label="Loading models" />
              </div>
            ) : models.isError ? (
              <Banner
                tone="danger"
                title="The models couldn't be loaded"
                action={
                  <Button size="sm" variant="outline" onClick={() => void models.refetch()}>
                    <RotateCcw aria-hidden />
                    Try again
                  </Button>
                }
              >
                {errorMessage(models.error)}
              </Banner>
            ) : (
              <ul className="flex flex-col gap-2" aria-label="Models">
                {list.map((model) => (
                  <ModelOption
                    key={model.id}
                    model={model}
                    selected={model.id === models.data.selected_id}
                    onChoose={() => choose(model)}
                  />
                ))}
              </ul>
            )}
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Close</Button>
              </DialogClose>
            </DialogFooter>
          </DialogContent>
        ) : null}
      </Dialog>
      <PlanRequiredDialog
        plan={locked?.plan ?? null}
        feature={locked?.name ?? ""}
        onClose={() => setLocked(null)}
      />
    </>
  );
}
