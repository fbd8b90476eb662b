import { describe, expect, it } from "vitest";
import { StopMatcher } from "./stop-matcher.ts";

function run(stops: string[], chunks: string[]) {
  const m = new StopMatcher(stops);
  const out = chunks.map((c) => m.push(c));
  return { text: out.join("") + m.flush(), stopped: m.isStopped };
}

describe("StopMatcher", () => {
  it("passes text through when there are no stops", () => {
    expect(run([], ["Hel", "lo"])).toEqual({ text: "Hello", stopped: false });
  });

  it("cuts at a stop string split across chunks, and drops it", () => {
    expect(run(["\nUser:"], ["Fine.", "\nUs", "er: hi"])).toEqual({ text: "Fine.", stopped: true });
  });

  it("holds back a possible stop prefix, then releases it when it turns out not to be one", () => {
    const m = new StopMatcher(["END"]);
    expect(m.push("the EN")).toBe("the ");
    expect(m.push("D")).toBe("");
    expect(m.isStopped).toBe(true);
    const n = new StopMatcher(["END"]);
    expect(n.push("the EN")).toBe("the ");
    expect(n.push("ough")).toBe("ENough");
  });

  it("stops at the earliest of several stops", () => {
    expect(run(["B", "A"], ["xxAyyB"])).toEqual({ text: "xx", stopped: true });
  });

  it("returns held text at the end of the stream", () => {
    expect(run(["END"], ["almost E"])).toEqual({ text: "almost E", stopped: false });
  });
});
