import { LORE_KEY_MAX, LORE_KEYS_MAX } from "@hearth/contract";
import { ChipInput, type ChipInputProps } from "../../ui/chip-input.tsx";

type KeyInputProps = Pick<
  ChipInputProps,
  "id" | "label" | "hint" | "value" | "onChange" | "disabled" | "error"
> & {
  /** Regex keys may hold commas ("/a{1,3}/"), so a comma only separates plain keys. */
  commaSeparates: boolean;
};

const keyWords = {
  unit: "key",
  units: "keys",
  examples: "dragon, wyrm…",
  max: LORE_KEYS_MAX,
  tooMany: `At most ${LORE_KEYS_MAX} keys.`,
  // Trimmed only: keys keep their case, as case sensitivity is the entry's choice.
  normalise: (raw: string) => raw.trim(),
  check: (key: string) =>
    key.length > LORE_KEY_MAX ? `A key has at most ${LORE_KEY_MAX} characters.` : null,
};

/** An entry's keys as chips, like the chatbot's tags: Enter (or a comma, for plain keys) adds one. */
export function KeyInput(props: KeyInputProps) {
  return <ChipInput {...keyWords} listLabel={`${props.label} chosen`} {...props} />;
}
