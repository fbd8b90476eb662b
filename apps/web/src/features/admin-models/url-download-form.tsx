import { type ModelDownload, modelDownloadRequest } from "@hearth/contract";
import { Link2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import { useStartDownload } from "./api.ts";

type Errors = { url?: string; name?: string; form?: string };

/** Field problems from the contract schema (or the server's answer), keyed by field. */
function errorsFrom(issues: { path: string; message: string }[]): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    if (issue.path === "url" || issue.path === "name") errors[issue.path] ??= issue.message;
    else errors.form ??= issue.message;
  }
  return errors;
}

/** Download any GGUF file by its http(s) address, optionally under a chosen name. */
export function UrlDownloadForm({
  busy,
  onStarted,
}: {
  /** A download is running: one at a time. */
  busy: boolean;
  onStarted: (state: ModelDownload) => void;
}) {
  const start = useStartDownload();
  const [url, setUrl] = useState("");
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<Errors>({});

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request = { url: url.trim(), ...(name.trim() ? { name: name.trim() } : {}) };
    const checked = modelDownloadRequest.safeParse(request);
    if (!checked.success) {
      setErrors(
        errorsFrom(
          checked.error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message })),
        ),
      );
      return;
    }
    setErrors({});
    start.mutate(request, {
      onSuccess: (state) => {
        setUrl("");
        setName("");
        onStarted(state);
      },
      onError: (error) => {
        if (isApiRequestError(error) && error.issues?.length) setErrors(errorsFrom(error.issues));
      },
    });
  };

  const serverProblem = start.error && !errors.url && !errors.name ? errorMessage(start.error) : null;

  return (
    <section aria-labelledby="url-heading" className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h2 id="url-heading" className="text-lg font-semibold">
          Download from a URL
        </h2>
        <p className="text-sm text-muted">
          Any chat model in GGUF format, e.g. from Hugging Face (use the file's "download" link).
        </p>
      </div>
      <form
        onSubmit={submit}
        noValidate
        className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-4 sm:p-5"
      >
        {serverProblem ? (
          <Banner tone="danger" title="Couldn't start the download">
            {serverProblem}
          </Banner>
        ) : errors.form ? (
          <Banner tone="danger">{errors.form}</Banner>
        ) : null}
        <Field
          id="model-url"
          label="Model file URL"
          error={errors.url}
          hint="An http:// or https:// address of a .gguf file."
        >
          <Input
            {...fieldControlProps("model-url", errors.url, true)}
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://huggingface.co/…/resolve/main/model-Q4_K_M.gguf"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
        </Field>
        <Field
          id="model-name"
          label="Name (optional)"
          error={errors.name}
          hint="What the model is called on this server. Left empty, it comes from the file name."
        >
          <Input
            {...fieldControlProps("model-name", errors.name, true)}
            autoComplete="off"
            spellCheck={false}
            placeholder="my-model"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={busy} loading={start.isPending}>
            {start.isPending ? null : <Link2 aria-hidden />}
            Download
          </Button>
          {busy ? <p className="text-sm text-muted">Wait for the current download to finish.</p> : null}
        </div>
      </form>
    </section>
  );
}
