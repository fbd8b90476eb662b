import { LOREBOOK_IMPORT_MAX_BYTES, type LorebookImportResult } from "@hearth/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { FileUp, Pencil } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { FilePickerButton, UploadProgress } from "../../ui/file-upload.tsx";
import { importLorebook, lorebookHref } from "./api.ts";

const accepted = ".json,.png,application/json,image/png";
const formatName: Record<LorebookImportResult["format"], string> = {
  worldinfo: "a SillyTavern world-info file",
  card: "a character card",
  character_book: "a card's character_book",
};

/** Import a lorebook file (world-info JSON, a card's JSON or PNG): pick it, watch it upload, see what came in. */
export function ImportLorebook({ disabled }: { disabled?: boolean }) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<LorebookImportResult | null>(null);

  const upload = async (file: File) => {
    setFileName(file.name);
    setError(null);
    setResult(null);
    if (file.size > LOREBOOK_IMPORT_MAX_BYTES) {
      setError(`The file is larger than ${LOREBOOK_IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
      return;
    }
    setProgress(0);
    try {
      setResult(await importLorebook(queryClient, file, (p) => setProgress(p.fraction ?? Number.NaN)));
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setProgress(null);
    }
  };

  const busy = progress !== null;

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <FilePickerButton accept={accepted} disabled={busy || disabled} onFile={(file) => void upload(file)}>
          <FileUp aria-hidden />
          Import a file
        </FilePickerButton>
        <span className="text-sm text-muted">
          SillyTavern world info, or a card (JSON or PNG) with a lorebook.
        </span>
      </div>
      {progress !== null ? (
        <UploadProgress
          progress={progress}
          label={`Uploading ${fileName ?? "the file"}`}
          workingText="Reading…"
          className="w-full max-w-xs"
        />
      ) : null}
      {error ? (
        <Banner tone="danger" title={`${fileName ?? "The file"} couldn't be imported`}>
          {error}
        </Banner>
      ) : null}
      {result ? (
        <Banner
          tone="success"
          title={`Imported ${result.lorebook.name}`}
          action={
            <Button asChild size="sm" variant="outline">
              <Link to={lorebookHref(result.lorebook.id)}>
                <Pencil aria-hidden />
                Open
              </Link>
            </Button>
          }
        >
          {result.lorebook.entries.length} {result.lorebook.entries.length === 1 ? "entry" : "entries"} from{" "}
          {formatName[result.format]}.
          {result.skipped_entries
            ? ` ${result.skipped_entries} ${result.skipped_entries === 1 ? "entry" : "entries"} without text left out.`
            : ""}
        </Banner>
      ) : null}
    </div>
  );
}
