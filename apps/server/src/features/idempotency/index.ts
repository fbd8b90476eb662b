// What the idempotency feature offers the rest of the server: one answer per Idempotency-Key
// for the endpoints that import (a retry after a lost answer must not import twice).
export { answerOnce, IDEMPOTENCY_HEADER, IDEMPOTENCY_KEPT_S, idempotencyKeyOf, readWhole } from "./keyed.ts";
