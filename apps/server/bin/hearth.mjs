#!/usr/bin/env node
// Entry point of the `hearth` CLI: runs the TypeScript sources through tsx's loader.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/index.ts");
