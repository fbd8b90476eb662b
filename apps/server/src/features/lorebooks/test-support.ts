import type { LorebookBodyInput } from "@hearth/contract";

/** A small book for the lorebooks API tests: a keyed entry and a selective NOT ANY one at depth. */
export const harbor: LorebookBodyInput = {
  name: "Harbor",
  description: "The port town.",
  scan_depth: 3,
  token_budget: 400,
  entries: [
    { id: "1", name: "Beacon", keys: ["lighthouse"], content: "The lighthouse keeper is Tomas." },
    {
      id: "2",
      name: "Ferry",
      keys: ["ferry"],
      secondary_keys: ["storm"],
      selective: true,
      logic: "not_any",
      content: "The ferry leaves at dawn.",
      position: "at_depth",
      depth: 2,
    },
  ],
};
