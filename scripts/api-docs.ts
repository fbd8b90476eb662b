// `npm run api-docs`: writes docs/API.md from the endpoint contract.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { apiReferenceMarkdown } from "../apps/server/src/http/api-reference.ts";

const file = path.resolve(import.meta.dirname, "../docs/API.md");
writeFileSync(file, apiReferenceMarkdown());
console.log(`Wrote ${file}`);
