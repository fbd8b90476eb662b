import { isIP } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../config.ts";
import { HttpError } from "./errors.ts";

/**
 * DNS rebinding guard (decision 025). A page on a name its author controls can have that name
 * resolve to this server, and the browser then treats Hearth as that page's own origin: the
 * Origin check sees a matching Origin and Host. Refusing every Host that is not one of Hearth's
 * own names stops it, as Vite and Jupyter do. Accepted: loopback names, IP literals (a page at an
 * address was served by that address, so no name was rebound), PUBLIC_URL's host and
 * HEARTH_ALLOWED_HOSTS. Behind a trusted proxy the host is the forwarded one.
 */
type HostRules = Pick<Config, "publicUrl" | "allowedHosts">;

/** Characters no browser puts in a Host header; a header with one is nobody's name for Hearth. */
const NOT_IN_A_HOST = /[\s@/\\?#]/;

/** The host name of a Host header as browsers write it (lower case, no port or final dot), or null. */
export function hostNameOf(host: string): string | null {
  if (!host || NOT_IN_A_HOST.test(host)) return null;
  try {
    return new URL(`http://${host}`).hostname.replace(/\.$/, "");
  } catch {
    return null;
  }
}

/** localhost and its subdomains, which browsers resolve to this machine themselves. */
export function isLoopbackName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost");
}

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.replace(/^\[|\]$/g, "").toLowerCase();
  const v4 = plain.startsWith("::ffff:") ? plain.slice(7) : plain;
  if (isIP(v4) === 4) return v4.startsWith("127.");
  return plain === "::1" || plain === "0:0:0:0:0:0:0:1";
}

/**
 * Whether a request came from this machine: its socket's address is loopback and, behind a
 * trusted proxy, so is every forwarded address (a client could write 127.0.0.1 into
 * X-Forwarded-For itself; the proxy appends the real one after it). Without a trusted proxy, a
 * request that names a forwarded client came through a proxy here on someone else's behalf.
 */
export function fromLoopback(req: Pick<FastifyRequest, "ip" | "ips" | "headers">): boolean {
  // Behind a trusted proxy `ips` is the socket's address and the forwarded ones; else just `ip`.
  if (!req.ips && FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined)) {
    // A proxy on this machine that Hearth does not trust forwarded someone else's request.
    return false;
  }
  return (req.ips ?? [req.ip]).every(isLoopbackAddress);
}

const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];

/** Whether Hearth answers to this host name under these rules. */
export function hostAllowed(name: string, rules: HostRules): boolean {
  if (isLoopbackName(name) || isIP(name.replace(/^\[|\]$/g, "")) !== 0) return true;
  if (rules.publicUrl && new URL(rules.publicUrl).hostname === name) return true;
  return rules.allowedHosts.some((entry) =>
    entry === "*"
      ? true
      : entry.startsWith(".")
        ? name === entry.slice(1) || name.endsWith(entry)
        : name === entry,
  );
}

export function unknownHostMessage(name: string | null): string {
  const which = name ? `the name "${name.slice(0, 100)}"` : "this address";
  return `This Hearth server does not answer to ${which}. If that is how people reach it, its operator can add the name to HEARTH_ALLOWED_HOSTS, or set PUBLIC_URL to the address people use, and restart it.`;
}

/**
 * Refuses, with 421 `unknownHost`, every request whose host is not one of Hearth's names, before
 * any handler runs: the API, better-auth, /v1, static files and the page fallback alike. A request
 * with no Host at all (HTTP/1.0) is let through: browsers always send one.
 */
export function installHostCheck(app: FastifyInstance, rules: HostRules) {
  app.addHook("onRequest", async (req) => {
    const host = req.host;
    if (!host) return;
    const name = hostNameOf(host);
    if (name && hostAllowed(name, rules)) return;
    throw new HttpError(421, "unknownHost", unknownHostMessage(name));
  });
}
