import { allEndpoints, apiError, type EndpointDef } from "@hearth/contract";
import { z } from "zod";

type JsonSchema = Record<string, unknown>;

/** A contract schema as JSON Schema (what a caller sends, or what the server answers). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** Path or query parameters from an object schema, one entry per property. */
function parameters(schema: z.ZodType | undefined, where: "path" | "query") {
  if (!schema) return [];
  const json = jsonSchema(schema, "input") as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === "path" || (json.required ?? []).includes(name),
    schema: property,
    ...(typeof property.description === "string" ? { description: property.description } : {}),
  }));
}

const idempotencyKeyHeader = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  schema: { type: "string", minLength: 8, maxLength: 200 },
  description:
    "One per user action: a retry with the same key and request answers the first answer again, without importing twice (kept 24 h)",
};

function requestBody(def: EndpointDef) {
  if (!def.body) return undefined;
  if (def.body === "multipart") {
    return {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: { file: { type: "string", format: "binary" } },
            required: ["file"],
          },
        },
      },
    };
  }
  return { required: true, content: { "application/json": { schema: jsonSchema(def.body, "input") } } };
}

function success(def: EndpointDef) {
  const status = String(def.status ?? (def.response === null && !def.events && !def.file ? 204 : 200));
  if (def.events) {
    const stream = { "text/event-stream": { schema: jsonSchema(def.events, "output") } };
    const json = def.response ? { "application/json": { schema: jsonSchema(def.response, "output") } } : {};
    const description = def.response
      ? "JSON, or server-sent events when asked to stream"
      : "Server-sent events";
    return { [status]: { description, content: { ...json, ...stream } } };
  }
  if (def.file)
    return {
      [status]: {
        description: "A file",
        content: { [def.file]: { schema: { type: "string", format: "binary" } } },
      },
    };
  if (def.response === null) return { [status]: { description: "Done; no content" } };
  return {
    [status]: {
      description: "OK",
      content: { "application/json": { schema: jsonSchema(def.response, "output") } },
    },
  };
}

/** Hearth's `{ code, message }`, or the endpoint's own error shape (the OpenAI API's). */
function errors(def: EndpointDef) {
  const schema = def.error ? jsonSchema(def.error, "output") : { $ref: "#/components/schemas/ApiError" };
  const content = { "application/json": { schema } };
  return {
    "4XX": { description: "A client error", content },
    "5XX": { description: "A server error", content },
  };
}

/** The OpenAPI 3.1 document of every endpoint in the contract. */
export function openApiDocument(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const def of allEndpoints) {
    const operation = {
      summary: def.summary,
      tags: [def.tag],
      operationId: `${def.method.toLowerCase()} ${def.path}`,
      "x-access": def.access,
      parameters: [
        ...parameters(def.params, "path"),
        ...parameters(def.query, "query"),
        ...(def.idempotencyKey ? [idempotencyKeyHeader] : []),
      ],
      ...(requestBody(def) ? { requestBody: requestBody(def) } : {}),
      responses: { ...success(def), ...errors(def) },
    };
    paths[def.path] = { ...paths[def.path], [def.method.toLowerCase()]: operation };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Hearth API",
      version,
      description:
        "Every endpoint of a Hearth server, generated from its endpoint contract (packages/contract). Errors are JSON `{ code, message }`. Sign-in and sessions are better-auth's routes under /api/auth.",
    },
    paths,
    components: { schemas: { ApiError: jsonSchema(apiError, "output") } },
  };
}
