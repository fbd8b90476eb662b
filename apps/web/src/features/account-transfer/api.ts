import { type AccountImportReport, type ApiError, accountTransferEndpoints } from "@hearth/contract";
import { ApiRequestError } from "../../lib/api.ts";
import { type UploadProgress, uploadTo } from "../../lib/upload.ts";

/** The download name the server gives, from Content-Disposition (the UTF-8 one first). */
function fileNameOf(header: string | null): string {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header ?? "")?.[1];
  if (utf8) return decodeURIComponent(utf8);
  return /filename="([^"]+)"/i.exec(header ?? "")?.[1] ?? "hearth-account.zip";
}

/** Fetches the whole-account archive and hands it to the browser as a download. */
export async function downloadAccount(): Promise<string> {
  const res = await fetch(accountTransferEndpoints.export.path, { credentials: "same-origin" });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as ApiError | null;
    throw new ApiRequestError(res.status, body?.code ?? "internal", body?.message ?? "The download failed.");
  }
  const name = fileNameOf(res.headers.get("content-disposition"));
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}

/** Uploads an archive from another Hearth. */
export function importAccount(
  file: File,
  onProgress: (progress: UploadProgress) => void,
): Promise<AccountImportReport> {
  return uploadTo(accountTransferEndpoints.import, undefined, file, onProgress);
}
