import { characterEndpoints, type PromptCost, type PromptCostRequest } from "@hearth/contract";
import { promptSectionName } from "@hearth/contract/labels";
import { useQuery } from "@tanstack/react-query";
import { Gauge } from "lucide-react";
import { useEffect, useState } from "react";
import { call } from "../../lib/client.ts";
import { cn } from "../../ui/cn.ts";

const n = (value: number) => value.toLocaleString("en-US");

/** After typing pauses this long, the definition is priced again. */
const COST_DEBOUNCE_MS = 600;

/** Prices the definition as it is typed (debounced), with the server's own prompt building. */
export function usePromptCost(fields: Required<PromptCostRequest>) {
  const [settled, setSettled] = useState(fields);
  // The fields by content: a new object with the same text does not restart the wait.
  const key = JSON.stringify(fields);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key)), COST_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return useQuery({
    queryKey: ["characters", "prompt-cost", settled],
    queryFn: ({ signal }) => call(characterEndpoints.promptCost, { body: settled, signal }),
    placeholderData: (previous) => previous,
    staleTime: 60_000,
  });
}

/**
 * What a definition costs: its tokens against the window a member's chat gets on the default
 * model, and what the first message of a chat leaves out to fit.
 */
export function PromptCostSummary({ cost, className }: { cost: PromptCost; className?: string }) {
  const share = Math.min(1, cost.definition_tokens / cost.window);
  const over = cost.trims.length > 0;
  return (
    <section
      aria-label="Prompt budget"
      className={cn(
        "flex flex-col gap-2 rounded-xl border border-border bg-surface p-3.5 text-sm",
        className,
      )}
    >
      <p className="flex items-center gap-2 font-medium">
        <Gauge aria-hidden className="size-4 text-accent-text" />
        {cost.exact ? "" : "About "}
        {n(cost.definition_tokens)} tokens of definition
        <span className="font-normal text-muted">
          of {n(cost.window)} a chat gets on {cost.model_name}
        </span>
      </p>
      <meter
        className="sr-only"
        aria-label="Definition tokens against the chat's window"
        min={0}
        max={cost.window}
        value={Math.min(cost.definition_tokens, cost.window)}
      />
      {/* The drawn bar; the meter above is what assistive technology reads. */}
      <div aria-hidden className="h-1.5 overflow-hidden rounded-full bg-surface-2">
        <div
          className={cn("h-full rounded-full", over ? "bg-warning" : "bg-accent")}
          style={{ width: `${Math.round(share * 100)}%` }}
        />
      </div>
      {over ? (
        <div className="flex flex-col gap-1 text-muted">
          <p>To fit, the first message of a chat leaves out:</p>
          <ul className="list-disc pl-5">
            {cost.trims.map((trim) => (
              <li key={trim.section}>
                {promptSectionName[trim.section]}:{" "}
                {trim.kept_tokens === 0
                  ? `all ${n(trim.full_tokens)} tokens`
                  : `${n(trim.full_tokens - trim.kept_tokens)} of ${n(trim.full_tokens)} tokens (cut at a sentence)`}
              </li>
            ))}
          </ul>
          <p>
            {cost.is_demo
              ? `This server runs Hearth's tiny demo model, which reads only ${n(cost.model_window)} tokens; a real model reads far more.`
              : "Members with longer context memory keep more of it."}{" "}
            Put what matters most at the start of each field.
          </p>
        </div>
      ) : (
        <p className="text-muted">Everything fits: the model reads the whole definition.</p>
      )}
    </section>
  );
}
