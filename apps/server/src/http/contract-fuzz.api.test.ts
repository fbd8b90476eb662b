import { randomUUID } from "node:crypto";
import { allEndpoints, apiError, type EndpointDef, pathOf } from "@hearth/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { drivers } from "../../test/databases.ts";
import { startTestHearth, type TestHearth, updateUser } from "../../test/harness.ts";

/**
 * Walks every endpoint of the contract with malformed input, generated from its schemas: wrong
 * types, missing and extra fields, huge and deeply nested values, NUL bytes and lone surrogates,
 * negative and NaN numbers, integers past what an int4 or a bigint column holds (in bodies, at
 * any depth, and in query strings and paths), ids that are not UUIDs. Nothing may answer 5xx, and
 * every 4xx must be the contract's `{ code, message }` (or the endpoint's declared error shape:
 * the OpenAI API's). better-auth's routes under /api/auth are walked the same way below.
 */

type Json = Record<string, unknown>;

const API_KEY = "fuzz-api-key-0123456789abcdef";
const NUL = "a\u0000b";
const SURROGATE = "a\ud800b";
const HUGE = "x".repeat(200_000);
const nested = (depth: number): unknown => (depth === 0 ? "deep" : { a: nested(depth - 1) });
/** Past int4 (2^31, -2^31-1), past Number.MAX_SAFE_INTEGER (2^53), past int8 (2^63), and beyond. */
const BIG_INTEGERS = [2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 63, 1e20];
/** The same as text, for query strings and paths: int8's maximum plus one among them. */
const BIG_INTEGER_TEXTS = ["2147483648", "-2147483649", "9007199254740993", "9223372036854775808", "1e20"];

/** Bad values for one JSON-Schema property, by what it should be. */
function badValues(property: Json): unknown[] {
  const common: unknown[] = [null, NUL, SURROGATE, HUGE, [], {}, nested(200)];
  switch (property.type) {
    case "string":
      return [...common, 42, true, ["a"]];
    case "number":
    case "integer":
      return [...common, "NaN", -1, -1e308, 1e308, 1.5, "12", ...BIG_INTEGERS];
    case "boolean":
      return [...common, "true", 1];
    case "array":
      return [...common, "not-a-list", [NUL], Array.from({ length: 5000 }, () => "t")];
    default:
      return [...common, 7, "text"];
  }
}

function jsonSchema(schema: z.ZodType): { properties: Record<string, Json>; json: Json } {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
  return { properties: (json.properties as Record<string, Json> | undefined) ?? {}, json };
}

const isNumber = (node: Json) =>
  [node.type].flat().some((t) => t === "integer" || t === "number") && node.const === undefined;

/**
 * The numbers below a body's top level (`settings.top_k`, `entries[].depth`), each as the path
 * to it: a property's name, or "[]" for an array's item.
 */
function nestedNumbers(node: Json, path: string[] = [], out: string[][] = []): string[][] {
  if (isNumber(node) && path.length > 1) out.push(path);
  for (const variant of [node.anyOf, node.oneOf, node.allOf].flat())
    if (variant) nestedNumbers(variant as Json, path, out);
  if (node.items && typeof node.items === "object") nestedNumbers(node.items as Json, [...path, "[]"], out);
  for (const [name, child] of Object.entries((node.properties as Record<string, Json> | undefined) ?? {}))
    nestedNumbers(child, [...path, name], out);
  return out;
}

/** A body holding `value` at `path`, and nothing else. */
const bodyAt = (path: string[], value: unknown): unknown =>
  path.reduceRight<unknown>((inner, step) => (step === "[]" ? [inner] : { [step]: inner }), value);

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
    for (const bad of [
      "not-a-uuid",
      "%00",
      "%ED%A0%80",
      "..%2F..%2Fetc",
      "x".repeat(5000),
      "-1",
      "NaN",
      // Every path id is a UUID: the largest of the big integers shows a number is no way past that.
      "9223372036854775808",
    ]) {
      out.push({
        label: `param ${name}=${bad.slice(0, 20)}`,
        url: def.path
          .replace(`{${name}}`, bad)
          .replace(/\{(\w+)\}/g, (_, n: string) => goodParams[n] as string),
      });
    }
  }
  if (def.query) {
    for (const key of Object.keys(jsonSchema(def.query).properties)) {
      for (const bad of ["%00", "NaN", "-1", "1e309", "x".repeat(5000), "%ED%A0%80", ...BIG_INTEGER_TEXTS]) {
        out.push({ label: `query ${key}=${bad.slice(0, 20)}`, url: url(goodParams, `?${key}=${bad}`) });
      }
      out.push({ label: `query ${key} twice`, url: url(goodParams, `?${key}=1&${key}=2`) });
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
    const { properties, json } = jsonSchema(def.body);
    send("body with an extra field", { extra_field: NUL, __proto__: { polluted: true } });
    for (const [key, property] of Object.entries(properties)) {
      for (const bad of badValues(property))
        send(`body ${key}=${JSON.stringify(bad)?.slice(0, 20)}`, { [key]: bad });
    }
    for (const path of nestedNumbers(json)) {
      for (const big of BIG_INTEGERS) send(`body ${path.join(".")}=${big}`, bodyAt(path, big));
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

/**
 * better-auth's routes as Hearth exposes them (node_modules/better-auth: its api/routes and the
 * anonymous plugin; features/accounts/auth-routes.ts closes update-user and change-email).
 */
const AUTH_POSTS = [
  "sign-in/email",
  "sign-up/email",
  "sign-in/anonymous",
  "sign-in/social",
  "request-password-reset",
  "reset-password",
  "change-password",
  "verify-password",
  "send-verification-email",
  "update-session",
  "get-session",
  "revoke-session",
  "unlink-account",
  "link-social",
  "refresh-token",
  "get-access-token",
  "update-user",
  "change-email",
  "revoke-other-sessions",
  "revoke-sessions",
  "delete-anonymous-user",
  "delete-user",
  "sign-out",
];
const AUTH_GETS = [
  "get-session",
  "list-sessions",
  "list-accounts",
  "account-info",
  "verify-email?token=",
  "reset-password/",
  "delete-user/callback?token=",
];
const CLOSED_AUTH_POSTS = new Set(["update-user", "change-email"]);
/** The fields better-auth's routes read, each sent alone with a bad value. */
const AUTH_FIELDS = [
  "email",
  "password",
  "name",
  "token",
  "newPassword",
  "currentPassword",
  "callbackURL",
  "provider",
];

/**
 * better-auth's own refusals are `{ message, code }` (its APIError), but a few (the callbackURL
 * check, a sign-up hook's) carry only the message; Hearth's guards answer its `{ code, message }`.
 */
const betterAuthError = z.object({ message: z.string().min(1), code: z.string().optional() });
const authErrorShape = z.union([apiError, betterAuthError]);

/** The malformed requests for one of better-auth's POST routes. */
function authVariants(route: string): Variant[] {
  const url = `/api/auth/${route}`;
  const closed = CLOSED_AUTH_POSTS.has(route);
  // Hearth reads the body before better-auth does and refuses a NUL in it (closed paths first answer 404).
  const nulRefused = closed ? undefined : { status: 400, code: "invalidRequest" };
  const json = (label: string, body: unknown, expect?: Variant["expect"]): Variant => ({
    label,
    url,
    body: JSON.stringify(body),
    contentType: "application/json",
    ...(expect ? { expect } : {}),
  });
  const out: Variant[] = [null, [], "text", 42, true, {}, nested(1000)].map((whole) =>
    json(`body ${JSON.stringify(whole)?.slice(0, 20)}`, whole),
  );
  out.push(
    json("body with a NUL key", { [NUL]: "x" }, nulRefused),
    { label: "body not JSON", url, body: "{ nope", contentType: "application/json" },
    { label: "body too large", url, body: JSON.stringify({ email: HUGE }), contentType: "application/json" },
    {
      label: "a form with NUL",
      url,
      body: "email=a%00b&password=x",
      contentType: "application/x-www-form-urlencoded",
      ...(nulRefused ? { expect: nulRefused } : {}),
    },
    {
      label: "a form of lists",
      url,
      body: "email[]=a&email[]=b&password[x]=1",
      contentType: "application/x-www-form-urlencoded",
    },
  );
  const unsupported = closed ? undefined : { status: 415, code: "unsupportedMediaType" };
  for (const [label, contentType] of [
    ["text/plain", "text/plain"],
    ["multipart", "multipart/form-data; boundary=x"],
    ["XML", "application/xml"],
  ] as const)
    out.push({
      label: `body as ${label}`,
      url,
      body: '{"email":"a@b.io"}',
      contentType,
      ...(unsupported ? { expect: unsupported } : {}),
    });
  for (const field of AUTH_FIELDS) {
    // Every field is text: one number (past int8) stands for all of them, one long text for all lengths.
    const long = field === "email" || field === "password" ? ["x".repeat(60_000)] : [];
    for (const bad of [2 ** 63, null, [], {}, nested(50), SURROGATE, ...long])
      out.push(json(`body ${field}=${JSON.stringify(bad)?.slice(0, 20)}`, { [field]: bad }));
    out.push(json(`body ${field} with NUL`, { [field]: `${NUL}@example.com` }, nulRefused));
  }
  return out;
}

/** What is wrong with one answer: a 5xx, a 4xx not in the error shape, or not the expected one. */
function answerProblems(
  res: { statusCode: number; body: string; json: () => unknown },
  where: string,
  errorShape: z.ZodType,
  expected: Variant["expect"],
  checkCode = true,
): string[] {
  const out: string[] = [];
  let body: unknown = null;
  try {
    body = res.json();
  } catch {
    // Not JSON: reported below.
  }
  if (expected && res.statusCode !== expected.status) out.push(`${where}, expected ${expected.status}`);
  else if (expected && checkCode && (body as { code?: unknown } | null)?.code !== expected.code)
    out.push(`${where}, expected ${expected.code}: ${res.body.slice(0, 120)}`);
  if (res.statusCode >= 500) out.push(`${where} ${res.body.slice(0, 200)}`);
  else if (res.statusCode >= 400 && !errorShape.safeParse(body).success)
    out.push(`${where} not the declared error shape: ${res.body.slice(0, 120)}`);
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
          failures.push(...answerProblems(res, where, errorShape, expected, !def.error));
        }
      }
      expect(failures).toEqual([]);
    });
  }

  // A member of their own per route: sign-out, revoke-sessions and delete-user may end the session.
  const authPeople = async () => [
    { who: "signed out" },
    { who: "member", ...(await h.signUp({ name: "Auth Fuzz" })) },
  ];

  for (const route of AUTH_POSTS) {
    it(`POST /api/auth/${route}: no 5xx, every 4xx is { code, message } or better-auth's`, async () => {
      const failures: string[] = [];
      const who = await authPeople();
      for (const variant of authVariants(route)) {
        for (const person of who) {
          const res = await h.app.inject({
            method: "POST",
            url: variant.url,
            headers: {
              ...("cookie" in person ? { cookie: person.cookie } : {}),
              ...(variant.contentType ? { "content-type": variant.contentType } : {}),
            },
            ...(variant.body !== undefined ? { payload: variant.body } : {}),
          });
          const where = `${person.who}, ${variant.label}: ${res.statusCode}`;
          failures.push(...answerProblems(res, where, authErrorShape, variant.expect));
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it("GET /api/auth/*: hostile query strings and paths answer no 5xx", async () => {
    const failures: string[] = [];
    const who = await authPeople();
    for (const route of AUTH_GETS) {
      const open = route.endsWith("=") || route.endsWith("/");
      for (const bad of open ? ["%00", "%ED%A0%80", "x".repeat(5000), "%", ...BIG_INTEGER_TEXTS] : [""]) {
        for (const person of who) {
          const url = `/api/auth/${route}${bad}${open ? "" : "?x=%00&x=%ED%A0%80"}`;
          const res = await h.app.inject({
            method: "GET",
            url,
            headers: "cookie" in person ? { cookie: person.cookie } : {},
          });
          failures.push(
            ...answerProblems(
              res,
              `${person.who}, GET ${url.slice(0, 60)}: ${res.statusCode}`,
              authErrorShape,
              undefined,
            ),
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
