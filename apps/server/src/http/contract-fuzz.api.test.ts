import { randomUUID } from "node:crypto";
import { allEndpoints, apiError, type EndpointDef, pathOf } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { drivers } from "../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../test/harness.ts";

/**
 * Walks every endpoint of the contract with malformed input, generated from its schemas: wrong
 * types, missing and extra fields, huge and deeply nested values, NUL bytes and lone surrogates,
 * negative and NaN numbers, ids that are not UUIDs. Nothing may answer 5xx, and every 4xx must
 * be the contract's `{ code, message }` (or the endpoint's declared error shape: the OpenAI API's).
 */

type Json = Record<string, unknown>;

const API_KEY = "fuzz-api-key-0123456789abcdef";
const NUL = "a\u0000b";
const SURROGATE = "a\ud800b";
const HUGE = "x".repeat(200_000);
const nested = (depth: number): unknown => (depth === 0 ? "deep" : { a: nested(depth - 1) });

/** Bad values for one JSON-Schema property, by what it should be. */
function badValues(property: Json): unknown[] {
  const common: unknown[] = [null, NUL, SURROGATE, HUGE, [], {}, nested(200)];
  switch (property.type) {
    case "string":
      return [...common, 42, true, ["a"]];
    case "number":
    case "integer":
      return [...common, "NaN", -1, -1e308, 1e308, 1.5, "12"];
    case "boolean":
      return [...common, "true", 1];
    case "array":
      return [...common, "not-a-list", [NUL], Array.from({ length: 5000 }, () => "t")];
    default:
      return [...common, 7, "text"];
  }
}

function jsonSchema(schema: z.ZodType): { properties: Record<string, Json> } {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
  return { properties: (json.properties as Record<string, Json> | undefined) ?? {} };
}

interface Variant {
  label: string;
  url: string;
  body?: string;
  contentType?: string;
  /** The one answer this variant must get (from everyone the endpoint lets in that far). */
  expect?: { status: number; code: string };
}

/** The malformed requests for one endpoint. */
function variants(def: EndpointDef): Variant[] {
  const names = [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const goodParams = Object.fromEntries(names.map((n) => [n, randomUUID()]));
  const url = (params: Record<string, string> = goodParams, search = "") =>
    `${pathOf(def.path, params)}${search}`;
  const out: Variant[] = [];

  for (const name of names) {
    for (const bad of ["not-a-uuid", "%00", "%ED%A0%80", "..%2F..%2Fetc", "x".repeat(5000), "-1", "NaN"]) {
      out.push({
        label: `param ${name}=${bad.slice(0, 20)}`,
        url: def.path
          .replace(`{${name}}`, bad)
          .replace(/\{(\w+)\}/g, (_, n: string) => goodParams[n] as string),
      });
    }
  }
  if (def.query) {
    for (const [key, property] of Object.entries(jsonSchema(def.query).properties)) {
      for (const bad of ["%00", "NaN", "-1", "1e309", "x".repeat(5000), "%ED%A0%80"]) {
        out.push({ label: `query ${key}=${bad.slice(0, 20)}`, url: url(goodParams, `?${key}=${bad}`) });
      }
      out.push({ label: `query ${key} twice`, url: url(goodParams, `?${key}=1&${key}=2`) });
      void property;
    }
  }
  if (def.body && def.body !== "multipart") {
    const send = (label: string, body: unknown) =>
      out.push({ label, url: url(), body: JSON.stringify(body), contentType: "application/json" });
    for (const whole of [null, [], "text", 42, true, {}, nested(1000)])
      send(`body ${JSON.stringify(whole)?.slice(0, 20)}`, whole);
    out.push({ label: "body not JSON", url: url(), body: "{ nope", contentType: "application/json" });
    // A JSON body sent as anything else is refused unread (415): text/plain and form bodies are
    // what a page on another site can send without the browser asking first.
    const unsupported = { status: 415, code: "unsupportedMediaType" };
    for (const [label, body, contentType] of [
      ["text/plain", "{}", "text/plain"],
      ["text/plain JSON", JSON.stringify({ name: "x" }), "text/plain;charset=UTF-8"],
      ["a form", "name=x", "application/x-www-form-urlencoded"],
      [
        "multipart",
        '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--x--\r\n',
        "multipart/form-data; boundary=x",
      ],
      ["no content type", "{}", undefined],
    ] as const)
      out.push({ label: `body as ${label}`, url: url(), body, contentType, expect: unsupported });
    const properties = jsonSchema(def.body).properties;
    send("body with an extra field", { extra_field: NUL, __proto__: { polluted: true } });
    for (const [key, property] of Object.entries(properties)) {
      for (const bad of badValues(property))
        send(`body ${key}=${JSON.stringify(bad)?.slice(0, 20)}`, { [key]: bad });
    }
  }
  if (def.body === "multipart") {
    out.push({
      label: "multipart without a file",
      url: url(),
      body: "--x--\r\n",
      contentType: "multipart/form-data; boundary=x",
    });
    out.push({ label: "multipart as JSON", url: url(), body: "{}", contentType: "application/json" });
  }
  if (!def.body && def.method !== "GET" && def.method !== "DELETE") {
    out.push({
      label: "unexpected body",
      url: url(),
      body: JSON.stringify({ [NUL]: SURROGATE }),
      contentType: "application/json",
    });
  }
  return out;
}

describe.each(drivers)("every endpoint under hostile input (%s)", (driver) => {
  let h: TestHearth;
  const people: { who: string; cookie?: string }[] = [{ who: "signed out" }];

  beforeAll(async () => {
    h = await startTestHearth({
      driver,
      env: { HEARTH_RATE_LIMIT: "0", HEARTH_LOCAL_SERVERS: "off", HEARTH_API_KEY: API_KEY },
    });
    const admin = await h.signUp({ name: "Fuzz Admin" });
    await updateUser(h.database.db, admin.id, { is_admin: true });
    const member = await h.signUp({ name: "Fuzz Member" });
    people.push({ who: "admin", cookie: admin.cookie }, { who: "member", cookie: member.cookie });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("walks the contract", () => {
    expect(allEndpoints.length).toBeGreaterThan(5);
  });

  for (const def of allEndpoints) {
    it(`${def.method} ${def.path}: no 5xx, every 4xx is { code, message }`, async () => {
      const failures: string[] = [];
      const errorShape = def.error ?? apiError;
      for (const variant of variants(def)) {
        for (const person of people) {
          const res = await h.app.inject({
            method: def.method,
            url: variant.url,
            headers: {
              ...(person.cookie ? { cookie: person.cookie } : {}),
              // The OpenAI-compatible API is opened by its key; everything else by the session.
              ...(def.access === "api-key" && person.cookie ? { authorization: `Bearer ${API_KEY}` } : {}),
              ...(variant.contentType ? { "content-type": variant.contentType } : {}),
            },
            ...(variant.body !== undefined ? { payload: variant.body } : {}),
          });
          const where = `${person.who}, ${variant.label}: ${res.statusCode}`;
          // /v1 checks its key before anything else, so a caller without one learns only that.
          const expected = def.access === "api-key" && !person.cookie ? undefined : variant.expect;
          if (expected && res.statusCode !== expected.status)
            failures.push(`${where}, expected ${expected.status}`);
          else if (expected && !def.error && res.json<{ code: string }>().code !== expected.code)
            failures.push(`${where}, expected ${expected.code}: ${res.body.slice(0, 120)}`);
          if (res.statusCode >= 500) failures.push(`${where} ${res.body.slice(0, 200)}`);
          else if (res.statusCode >= 400) {
            let body: unknown = null;
            try {
              body = res.json();
            } catch {
              // Not JSON: reported below.
            }
            if (!errorShape.safeParse(body).success)
              failures.push(`${where} not the declared error shape: ${res.body.slice(0, 120)}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
