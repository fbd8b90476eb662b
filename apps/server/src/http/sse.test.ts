import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSse } from "./sse.ts";

/** openSse over a real socket: events sent in one turn leave in one write, in order. */
describe("server-sent events", () => {
  const app = Fastify();
  const writes: string[] = [];
  let url = "";

  beforeAll(async () => {
    app.get("/burst", (_request, reply) => {
      const out = openSse<{ n: number }>(reply);
      const write = reply.raw.write.bind(reply.raw);
      reply.raw.write = ((chunk: string, ...rest: never[]) => {
        writes.push(String(chunk));
        return write(chunk, ...rest);
      }) as typeof reply.raw.write;
      const end = reply.raw.end.bind(reply.raw);
      reply.raw.end = ((chunk?: string, ...rest: never[]) => {
        writes.push(`end: ${chunk ?? ""}`);
        return end(chunk, ...rest);
      }) as typeof reply.raw.end;
      // Three in one turn, then one in a later turn, then the end in that turn.
      out.send({ n: 1 }, "1");
      out.send({ n: 2 }, "2");
      out.send({ n: 3 });
      setTimeout(() => {
        out.send({ n: 4 }, "4");
        out.end();
      }, 20);
    });
    url = await app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => app.close());

  it("joins a turn's events into one write, and what is pending leaves with the end", async () => {
    const body = await (await fetch(`${url}/burst`)).text();
    expect(body).toBe(
      'id: 1\ndata: {"n":1}\n\nid: 2\ndata: {"n":2}\n\ndata: {"n":3}\n\nid: 4\ndata: {"n":4}\n\n',
    );
    expect(writes).toEqual([
      'id: 1\ndata: {"n":1}\n\nid: 2\ndata: {"n":2}\n\ndata: {"n":3}\n\n',
      'end: id: 4\ndata: {"n":4}\n\n',
    ]);
  });
});
