import type { GenerationSettings } from "@hearth/contract";
import { generationSettingFields } from "@hearth/contract/labels";
import { RotateCcw } from "lucide-react";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogClose, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import {
  clampSettings,
  defaultGenerationSettings,
  resetGenerationSettings,
  useGenerationSettings,
} from "./preferences.ts";

const decimals = (step: number) => (step >= 1 ? 0 : 2);

/**
 * Generation Settings (§2 modals, §5 sliders): max new tokens 180-300, temperature 0-1.5, top-p
 * 0.01-1, top-k 1-100. Changes are kept on this device and go with every later generation.
 */
export function GenerationSettingsDialog({
  userId,
  open,
  onOpenChange,
}: {
  userId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [stored, store] = useGenerationSettings(userId);
  const values = { ...defaultGenerationSettings, ...clampSettings(stored ?? {}) };

  const change = (key: keyof GenerationSettings, value: number) => {
    store(clampSettings({ ...values, [key]: value }));
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent
          title="Generation Settings"
          description="How replies are written in your chats. Kept on this device."
        >
          <div className="flex flex-col gap-5">
            {generationSettingFields.map((field) => {
              const id = `generation-${field.key}`;
              const value = values[field.key];
              return (
                <div key={field.key} className="flex flex-col gap-1.5">
                  <div className="flex items-baseline justify-between gap-3">
                    <label htmlFor={id} className="text-sm font-medium">
                      {field.label}
                    </label>
                    <output
                      htmlFor={id}
                      className="min-w-12 rounded-md bg-surface-2 px-2 py-0.5 text-right text-sm tabular-nums"
                      data-setting-value={field.key}
                    >
                      {value.toFixed(decimals(field.step))}
                    </output>
                  </div>
                  <input
                    id={id}
                    type="range"
                    min={field.min}
                    max={field.max}
                    step={field.step}
                    value={value}
                    aria-describedby={`${id}-help`}
                    onChange={(event) => change(field.key, Number(event.target.value))}
                    className="h-6 w-full cursor-pointer accent-[var(--brand-accent)]"
                  />
                  <div className="flex justify-between gap-3 text-xs text-muted">
                    <span id={`${id}-help`}>{field.help}</span>
                    <span className="shrink-0 tabular-nums" aria-hidden>
                      {field.min}–{field.max}
                    </span>
                  </div>
                </div>
              );
            })}
          </div>
          <DialogFooter>
            <Button
              variant="ghost"
              className="sm:mr-auto"
              disabled={stored === null}
              onClick={() => resetGenerationSettings(userId)}
            >
              <RotateCcw aria-hidden />
              Reset
            </Button>
            <DialogClose asChild>
              <Button>Done</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
