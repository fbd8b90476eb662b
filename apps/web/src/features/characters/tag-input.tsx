import { characterLimits, tagPattern, tagRuleMessage, tooManyTagsMessage } from "@hearth/contract/labels";
import { ChipInput, type ChipInputProps } from "../../ui/chip-input.tsx";

/** `error` is the server's error for the field. */
type TagInputProps = Pick<ChipInputProps, "id" | "value" | "onChange" | "disabled" | "error">;

const tagWords = {
  label: "Tags",
  hint: "Press Enter or type a comma after each tag. Tags help people find your chatbot.",
  listLabel: "Chosen tags",
  unit: "tag",
  units: "tags",
  examples: "fantasy, adventure, mentor…",
  max: characterLimits.tags,
  tooMany: tooManyTagsMessage,
  // Normalised like the contract's tag schema: trimmed, single spaces; the case is the creator's
  // ("White Hair"), while search and filters ignore it.
  normalise: (raw: string) => raw.trim().replace(/\s+/g, " "),
  check: (tag: string) => {
    if (tag.length > characterLimits.tag) return `A tag has at most ${characterLimits.tag} characters.`;
    return tagPattern.test(tag) ? null : tagRuleMessage;
  },
};

/** A chatbot's tags as chips; Enter or a comma adds one. At most 12 (chat-and-characters §5). */
export function TagInput(props: TagInputProps) {
  return <ChipInput {...tagWords} {...props} />;
}
