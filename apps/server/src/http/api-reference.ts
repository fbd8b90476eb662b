import { allEndpoints, type EndpointDef } from "@hearth/contract";
import { z } from "zod";

const accessWords: Record<EndpointDef["access"], string> = {
  anyone: "anyone",
  member: "signed in",
  creator: "the creator",
  admin: "admins",
  "api-key": "API key",
};

/** The top-level fields of an input schema, `name?` when optional. */
function fields(schema: z.ZodType | undefined): string {
  if (!schema) return "";
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
  const required = new Set(json.required ?? []);
  return Object.keys(json.properties ?? {})
    .map((name) => `\`${name}${required.has(name) ? "" : "?"}\``)
    .join(", ");
}

function input(def: EndpointDef): string {
  const parts = [];
  if (def.query) parts.push(`query ${fields(def.query)}`);
  if (def.body === "multipart") parts.push("a file (multipart)");
  else if (def.body) parts.push(`body ${fields(def.body)}`);
  return parts.join("; ");
}

function answer(def: EndpointDef): string {
  if (def.events) return "event stream";
  if (def.file) return `file (${def.file})`;
  return String(def.status ?? (def.response === null ? 204 : 200));
}

/**
 * docs/API.md: every endpoint by feature, in plain tables, generated from the contract
 * (`npm run api-docs`); the full schemas are in /api/openapi.json.
 */
export function apiReferenceMarkdown(): string {
  const tags = [...new Set(allEndpoints.map((e) => e.tag))];
  const lines = [
    "# Hearth API reference",
    "",
    "Generated from the endpoint contract (`packages/contract/src/endpoints`) by `npm run api-docs`;",
    "do not edit by hand. A running server serves the full OpenAPI 3.1 document, with every request",
    "and response schema, at `GET /api/openapi.json`. Errors are JSON `{ code, message }` (and",
    "`issues` for invalid fields). Sign-in and sessions are better-auth's routes under `/api/auth`.",
    "",
  ];
  for (const tag of tags) {
    lines.push(
      `## ${tag}`,
      "",
      "| Method | Path | Who | Input | Answer | What |",
      "|---|---|---|---|---|---|",
    );
    for (const def of allEndpoints.filter((e) => e.tag === tag)) {
      const row = [
        def.method,
        `\`${def.path}\``,
        accessWords[def.access],
        input(def),
        answer(def),
        def.summary,
      ];
      lines.push(`| ${row.map((cell) => cell.replace(/\|/g, "\\|")).join(" | ")} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
