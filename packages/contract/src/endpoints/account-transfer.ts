import { accountImportReport } from "../account-transfer.ts";
import { endpoint } from "../endpoint.ts";

/**
 * Whole-account export and import (apps/server/src/features/account-transfer): signed-in
 * members only (not guests, not an administrator viewing as a member); a restricted account may
 * still export its own data, but imports nothing.
 */
export const accountTransferEndpoints = {
  export: endpoint({
    method: "GET",
    path: "/api/account/export",
    summary:
      "Download everything the member owns as one zip archive (application/zip): manifest.json, characters/ (CharX cards, V3 JSON for one without a picture), conversations/ (Hearth chat JSON), personas/, lorebooks/, settings.json",
    tag: "Accounts",
    access: "member",
    response: null,
    file: "application/zip",
  }),
  import: endpoint({
    method: "POST",
    path: "/api/account/import",
    summary:
      "Import an archive from GET /api/account/export (multipart field `file`, at most 200 MB): characters (private), then personas, lorebooks, conversations and settings; answers what was imported and what was left out; the same archive again adds only what is missing (items are recorded by the manifest's SHA-256), so it needs no Idempotency-Key",
    tag: "Accounts",
    access: "member",
    body: "multipart",
    response: accountImportReport,
    status: 201,
  }),
} as const;
