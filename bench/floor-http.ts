// What the floor servers (bench/relay-floor.ts, bench/accept-floor.ts) share: a JSON answer, and
// listening with the line bench/concurrency-lib.ts's startHearth waits for.
import type http from "node:http";
import type { AddressInfo } from "node:net";

export function json(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Listens on PORT (default: any) and prints the address as `hearth start` does. */
export function listenAsHearth(server: http.Server): void {
  server.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1", backlog: 4096 }, () => {
    const { port } = server.address() as AddressInfo;
    console.log(JSON.stringify({ address: `http://127.0.0.1:${port}`, msg: "Hearth is running" }));
  });
}
