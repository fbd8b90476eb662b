import { BUNDLED_MODEL_PATH } from "../src/features/inference/registry.ts";

/** The GGUF the engine tests load: the bundled model unless HEARTH_TEST_MODEL names another. */
export const TEST_MODEL_PATH = process.env.HEARTH_TEST_MODEL ?? BUNDLED_MODEL_PATH;

export const GREEDY = { maxTokens: 24, temperature: 0, topP: 1, topK: 1, seed: 7 };

export const CARD = "You are Mira. A kind librarian who loves old maps.\nYou are talking with Sam.";

/** A raw (no chat template) prompt the bundled model continues with text rather than ending at once. */
export const RAW_PROMPT = "*Mira looks up from the map.* Oh, hello";
