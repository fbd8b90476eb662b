import type { ImportResult } from "@hearth/contract";
import { visibilityTitle } from "@hearth/contract/labels";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { FileUp, Pencil, UserRound } from "lucide-react";
import { type DragEvent, useId, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Badge } from "../../ui/badge.tsx";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { FilePickerButton, UploadProgress } from "../../ui/file-upload.tsx";
import { characterKeys, importCard } from "./api.ts";
import { editHref, profileHref } from "./links.ts";
import { PromptCostSummary } from "./prompt-cost.tsx";

const accepted = ".png,.json,.charx,image/png,application/json";
const formatName: Record<ImportResult["report"]["format"], string> = {
  png_v1: "PNG card (V1)",
  png_v2: "PNG card (V2)",
  png_v3: "PNG card (V3)",
  json_v1: "JSON card (V1)",
  json_v2: "JSON card (V2)",
  json_v3: "JSON card (V3)",
  charx: "CharX archive",
};

/** Import a Tavern/CharX character card: drop or pick a file, watch it upload, read the report. */
export function ImportCard() {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);

  const upload = async (file: File) => {
    setFileName(file.name);
    setError(null);
    setResult(null);
    setProgress(0);
    try {
      const imported = await importCard(file, (p) => setProgress(p.fraction ?? Number.NaN));
      setResult(imported);
      queryClient.setQueryData(characterKeys.edit(imported.character.id), imported.character);
      void queryClient.invalidateQueries({ queryKey: characterKeys.mine });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setProgress(null);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void upload(file);
  };

  const busy = progress !== null;

  return (
    <div className="flex flex-col gap-3">
      {/* Dropping is a shortcut for pointer users; the file button inside is the keyboard path. */}
      <section
        aria-label="Card file drop zone"
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => event.preventDefault()}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        className={cn(
          "flex flex-col items-center gap-3 rounded-xl border-2 border-dashed px-4 py-6 text-center transition",
          dragging ? "border-accent bg-accent-soft" : "border-border-strong",
        )}
      >
        <FileUp aria-hidden className="size-7 text-accent-text" />
        <p className="text-sm">
          <span className="font-medium">Drop a character card here</span>
          <span className="text-muted"> (PNG, JSON or CharX)</span>
        </p>
        <FilePickerButton
          accept={accepted}
          disabled={busy}
          size="sm"
          inputId={inputId}
          onFile={(file) => void upload(file)}
        >
          Choose a file
        </FilePickerButton>
        {progress !== null ? (
          <UploadProgress
            progress={progress}
            label={`Uploading ${fileName ?? "card"}`}
            workingText="Reading…"
            className="w-full max-w-xs"
          />
        ) : null}
      </section>
      {error ? (
        <Banner tone="danger" title={`${fileName ?? "The file"} couldn't be imported`}>
          {error}
        </Banner>
      ) : null}
      {result ? <ImportReport result={result} /> : null}
    </div>
  );
}

function ReportList({
  title,
  items,
  tone,
}: {
  title: string;
  items: string[];
  tone: "success" | "neutral" | "warning";
}) {
  if (items.length === 0) return null;
  return (
    <div className="flex flex-col gap-1.5">
      <h4 className="text-sm font-medium">
        {title} <Badge tone={tone}>{items.length}</Badge>
      </h4>
      <ul className="flex flex-wrap gap-1.5">
        {items.map((item) => (
          <li key={item} className="rounded-md bg-surface-2 px-2 py-0.5 text-xs text-muted">
            {item}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ImportReport({ result }: { result: ImportResult }) {
  const { character, report } = result;
  return (
    <section
      aria-labelledby="import-report-heading"
      className="flex flex-col gap-4 rounded-xl border border-success/40 bg-success-soft p-4"
    >
      <div className="flex flex-col gap-1">
        <h3 id="import-report-heading" className="font-semibold">
          Imported {character.name}
        </h3>
        <p className="text-sm text-muted">
          From a {formatName[report.format]}. Visibility: {visibilityTitle[character.visibility]}; change it
          in the editor.
        </p>
      </div>
      <ReportList title="Imported" items={report.imported} tone="success" />
      <PromptCostSummary cost={result.prompt_cost} />
      <ReportList title="Ignored" items={report.ignored} tone="neutral" />
      {report.warnings.length ? (
        <div className="flex flex-col gap-1.5">
          <h4 className="text-sm font-medium">
            Warnings <Badge tone="warning">{report.warnings.length}</Badge>
          </h4>
          <ul className="list-disc pl-5 text-sm">
            {report.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button asChild size="sm">
          <Link to={editHref(character.id)}>
            <Pencil aria-hidden />
            Edit {character.name}
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link to={profileHref(character.id)}>
            <UserRound aria-hidden />
            View profile
          </Link>
        </Button>
      </div>
    </section>
  );
}
