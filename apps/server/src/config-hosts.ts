import { z } from "zod";

/**
 * Which host names Hearth answers to (http/host-check.ts, decision 025) and who may read
 * /metrics (http/metrics.ts). config.ts spreads these variables into its schema; README.md
 * documents them.
 */
export const hostsEnv = {
  /** Comma-separated names besides loopback, IP literals and PUBLIC_URL's host: `mybox.lan`, `.example.com`, `*`. */
  HEARTH_ALLOWED_HOSTS: z.string().default(""),
  /** `true`: /metrics answers anyone, not only this machine (for a private network without a token). */
  HEARTH_METRICS_PUBLIC: z.stringbool().default(false),
};

type HostsEnv = z.output<z.ZodObject<typeof hostsEnv>> & { HEARTH_METRICS_TOKEN?: string | undefined };

export interface HostsConfig {
  /**
   * Host names accepted besides loopback names, IP literals and PUBLIC_URL's host, lower case:
   * `mybox.lan` (that name), `.example.com` (that name and every name under it), or `*` (any).
   */
  allowedHosts: string[];
  /** /metrics answers every address without a token (else only loopback, or the token). */
  metricsPublic: boolean;
}

/** The hosts settings, or a sentence saying which value is wrong. */
export function hostsConfig(e: HostsEnv): HostsConfig | string {
  const allowedHosts: string[] = [];
  for (const item of e.HEARTH_ALLOWED_HOSTS.split(",")) {
    const given = item.trim();
    if (!given) continue;
    const entry = allowedHostEntry(given);
    if (!entry) {
      return `HEARTH_ALLOWED_HOSTS: "${given}" is not a host name (write names like mybox.lan or .example.com, with no scheme, port or path)`;
    }
    if (!allowedHosts.includes(entry)) allowedHosts.push(entry);
  }
  if (e.HEARTH_METRICS_PUBLIC && e.HEARTH_METRICS_TOKEN) {
    return "HEARTH_METRICS_PUBLIC=true and HEARTH_METRICS_TOKEN are both set: keep the token to protect /metrics, or drop it to open /metrics to everyone";
  }
  return { allowedHosts, metricsPublic: e.HEARTH_METRICS_PUBLIC };
}

/** One allowed-hosts value in its matching form (`*.x` is written `.x`), or null if it is not a name. */
function allowedHostEntry(given: string): string | null {
  if (given === "*") return "*";
  const suffix = given.startsWith(".") ? given.slice(1) : given.startsWith("*.") ? given.slice(2) : null;
  const name = (suffix ?? given).replace(/\.$/, "");
  if (!/^[\p{L}\p{N}_-]+(\.[\p{L}\p{N}_-]+)*$/u.test(name)) return null;
  let hostname: string;
  try {
    // The form browsers put in the Host header: lower case, international names in punycode.
    hostname = new URL(`http://${name}`).hostname;
  } catch {
    return null;
  }
  return suffix === null ? hostname : `.${hostname}`;
}
