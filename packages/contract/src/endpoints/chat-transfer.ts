import { chatExportQuery, chatImportQuery, chatImportReport } from "../chat-transfer.ts";
import { endpoint, idParams } from "../endpoint.ts";

/**
 * Chat import and export (apps/server/src/features/chat-transfer). Importing is for signed-in
 * members (not guests); exporting is for the conversation's owner (guests too) and
 * administrators (an administrator's export of another member's chat is on the audit log);
 * anyone else hears 404, as for a missing conversation.
 */
export const chatTransferEndpoints = {
  import: endpoint({
    method: "POST",
    path: "/api/conversations/import",
    summary:
      "Import a chat file (multipart field `file`: SillyTavern JSONL or Hearth's chat JSON) as a new conversation with a character; answers what was kept and what was not; an Idempotency-Key header makes a retry answer the first import instead of importing again",
    tag: "Chats",
    access: "member",
    query: chatImportQuery,
    body: "multipart",
    idempotencyKey: true,
    response: chatImportReport,
    status: 201,
  }),
  export: endpoint({
    method: "GET",
    path: "/api/conversations/{id}/export",
    summary:
      "Download a conversation as SillyTavern JSONL (application/jsonl), Hearth's chat JSON (application/json) or Markdown (text/markdown), or open it as a printable page (format=html, text/html)",
    tag: "Chats",
    access: "member",
    params: idParams,
    query: chatExportQuery,
    response: null,
    file: "application/octet-stream",
  }),
} as const;
