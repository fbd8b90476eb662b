import { ACCOUNT_IMPORT_MAX_BYTES, type AccountImportReport } from "@hearth/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Download, FileUp } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { FilePickerButton, UploadProgress } from "../../ui/file-upload.tsx";
import { downloadAccount, importAccount } from "./api.ts";

const settingNames: Record<string, string> = {
  highlights: "highlights",
  show_nsfw: "NSFW",
  openai_mode: "own model key mode",
  default_model_id: "default model",
};
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

function ImportReport({ report }: { report: AccountImportReport }) {
  return (
    <section aria-label="Import report" className="flex flex-col gap-2 text-sm">
      <p>
        <span className="font-medium">Imported:</span> {plural(report.characters, "character")},{" "}
        {plural(report.conversations, "conversation")} ({plural(report.messages, "message")},{" "}
        {plural(report.memories, "memory", "memories")}), {plural(report.personas, "persona")},{" "}
        {plural(report.lorebooks, "lorebook")}
        {report.settings.length
          ? `, settings (${report.settings.map((s) => settingNames[s] ?? s).join(", ")})`
          : ""}
        .
      </p>
      {report.already_imported ? (
        <p>
          Already here from an earlier import of this archive: {plural(report.already_imported, "item")} (left
          as they are).
        </p>
      ) : null}
      {report.skipped.length ? (
        <div>
          <p className="font-medium">Left out:</p>
          <ul className="list-disc pl-5">
            {report.skipped.map((s) => (
              <li key={`${s.item}:${s.reason}`} className="break-words">
                <span className="break-all">{s.item}</span>: {s.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="text-muted">{report.note}</p>
    </section>
  );
}

/**
 * Downloads the account's archive, saying while it is prepared, what was saved and why it failed;
 * also offered on the restriction page, since a restriction never takes an account's data away.
 */
export function DownloadAccount({ className = "self-start" }: { className?: string }) {
  const [downloading, setDownloading] = useState(false);
  const [downloaded, setDownloaded] = useState<string | null>(null);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const download = async () => {
    setDownloading(true);
    setDownloaded(null);
    setDownloadError(null);
    try {
      setDownloaded(await downloadAccount());
    } catch (caught) {
      setDownloadError(errorMessage(caught));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <>
      <Button
        type="button"
        variant="outline"
        className={className}
        loading={downloading}
        onClick={() => void download()}
      >
        <Download aria-hidden />
        Download everything
      </Button>
      <div aria-live="polite" className="text-sm">
        {downloading ? "Preparing your archive…" : downloaded ? `Downloaded ${downloaded}.` : null}
      </div>
      {downloadError ? (
        <Banner tone="danger" title="Your data couldn't be downloaded">
          {downloadError}
        </Banner>
      ) : null}
    </>
  );
}

/**
 * Profile → Your data: download everything as one archive, or import one from another Hearth
 * (issue 19 item 4). Members only; the server refuses guests and an administrator's view.
 */
export function YourDataSection() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [importError, setImportError] = useState<string | null>(null);
  const [report, setReport] = useState<AccountImportReport | null>(null);

  const upload = async (file: File) => {
    setFileName(file.name);
    setImportError(null);
    setReport(null);
    if (file.size > ACCOUNT_IMPORT_MAX_BYTES) {
      setImportError(`The file is larger than ${ACCOUNT_IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
      return;
    }
    setProgress(0);
    try {
      setReport(await importAccount(file, (p) => setProgress(p.fraction ?? Number.NaN)));
      // Characters, chats and personas all changed: everything cached is stale.
      void queryClient.invalidateQueries();
    } catch (caught) {
      setImportError(errorMessage(caught));
    } finally {
      setProgress(null);
    }
  };

  const busy = progress !== null;
  return (
    <section aria-labelledby="your-data-heading" className="flex flex-col gap-4">
      <h2 id="your-data-heading" className="text-lg font-semibold">
        Your data
      </h2>
      <div className="flex flex-col gap-2">
        <p className="text-sm text-muted">
          One .zip archive of everything you own: the characters you made (as cards), your conversations,
          personas, lorebooks and settings. Your model key and password are never included.
        </p>
        <DownloadAccount />
      </div>
      <div className="flex flex-col gap-2">
        <p className="text-sm text-muted">
          Bring in an archive downloaded from another Hearth. Its characters become your private ones;
          everything is added beside what you have.
        </p>
        <FilePickerButton
          accept=".zip,application/zip"
          disabled={busy}
          className="self-start"
          inputLabel="Hearth archive to import"
          onFile={(file) => void upload(file)}
        >
          <FileUp aria-hidden />
          Import from another Hearth
        </FilePickerButton>
        {progress !== null ? (
          <UploadProgress
            progress={progress}
            label={`Uploading ${fileName ?? "archive"}`}
            workingText="Importing…"
          />
        ) : null}
        {importError ? (
          <Banner tone="danger" title={`${fileName ?? "The file"} couldn't be imported`}>
            {importError}
          </Banner>
        ) : null}
        {report ? <ImportReport report={report} /> : null}
      </div>
    </section>
  );
}
