import type { AdminActiveModel, ModelHealthStatus } from "@hearth/contract";
import { ArrowDown } from "lucide-react";
import { Badge, type BadgeTone } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Card, CardContent } from "../../ui/card.tsx";

export const demoModelNote =
  "Hearth Tiny is a small demo model made for trying Hearth out. Its replies are simple. Download a real model below.";

const stateLabel: Record<ModelHealthStatus, { text: string; tone: BadgeTone }> = {
  ok: { text: "Ready", tone: "success" },
  degraded: { text: "Loading", tone: "warning" },
  down: { text: "Not working", tone: "danger" },
};

const backendLabel: Record<string, string> = {
  "llama-cpp": "Runs on this server (llama.cpp)",
  "openai-compatible": "Remote model server (OpenAI-compatible)",
};

/** The state's detail in words for the page, or null when the badge says it all. */
function stateDetail(active: AdminActiveModel): string | null {
  const { status, detail } = active.state;
  if (status === "degraded" && (!detail || detail.startsWith("loading"))) {
    return "Loading the model. It answers chats once it is ready.";
  }
  // The health detail points demo users to the CLI; the note below says it better here.
  if (status === "ok") return active.is_demo ? null : detail;
  return detail;
}

/** The model new chats use now: its name, where it runs, whether it works. */
export function ActiveModelCard({ active }: { active: AdminActiveModel }) {
  const state = stateLabel[active.state.status];
  const detail = stateDetail(active);
  return (
    <Card>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <p className="text-xs font-medium tracking-wider text-muted uppercase">Active model</p>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
            <h2 className="min-w-0 text-xl font-semibold tracking-tight break-words">{active.name}</h2>
            <Badge tone={state.tone}>
              <span className="sr-only">State: </span>
              {state.text}
            </Badge>
            {active.is_demo ? <Badge tone="info">Demo</Badge> : null}
          </div>
          <p className="text-sm text-muted">{backendLabel[active.backend] ?? active.backend}</p>
        </div>
        {detail ? (
          active.state.status === "down" ? (
            <Banner tone="danger" title="The model isn't working">
              {detail}
            </Banner>
          ) : (
            <p className="text-sm text-muted">{detail}</p>
          )
        ) : null}
        {active.is_demo ? (
          <Banner
            tone="info"
            title="This is the tiny demo model"
            action={
              <Button asChild size="sm" variant="outline">
                <a href="#catalog-heading">
                  <ArrowDown aria-hidden />
                  Get a real model
                </a>
              </Button>
            }
          >
            {demoModelNote}
          </Banner>
        ) : null}
      </CardContent>
    </Card>
  );
}
