import {
  LORE_ENTRY_CONTENT_MAX,
  type LoreLogic,
  type LorePosition,
  loreLogic,
  lorePosition,
} from "@hearth/contract";
import { ChevronRight } from "lucide-react";
import { useId } from "react";
import { Input, Select } from "../../ui/input.tsx";
import { CheckboxField, CountedField, describedBy, TextArea } from "../characters/form-controls.tsx";
import { type EntryValues, logicLabel, numberRange, positionLabel } from "./book-values.ts";
import { KeyInput } from "./key-input.tsx";
import { NumberField } from "./number-field.tsx";

const range = (field: string) => numberRange(`entry.${field}`) as [number, number];

/**
 * Every field of one entry (the contract's loreEntry). What most entries need is shown; the
 * matching and recursion details are behind "Advanced".
 */
export function EntryForm({
  entry,
  errors,
  onChange,
}: {
  entry: EntryValues;
  errors: Record<string, string>;
  onChange: (entry: EntryValues) => void;
}) {
  const base = useId();
  const id = (field: string) => `${base}-${field}`;
  const set = <K extends keyof EntryValues>(key: K, value: EntryValues[K]) =>
    onChange({ ...entry, [key]: value });
  const advancedErrors = ["priority", "probability", "scan_depth"].some((field) => errors[field]);

  return (
    <div className="flex flex-col gap-5" data-entry-form={entry.id}>
      <CountedField id={id("name")} label="Name" error={errors.name} optional>
        <Input
          {...describedBy(id("name"), { error: errors.name })}
          value={entry.name}
          maxLength={200}
          placeholder="The old lighthouse"
          onChange={(event) => set("name", event.target.value)}
        />
      </CountedField>
      <KeyInput
        id={id("keys")}
        label="Keys"
        hint={
          entry.use_regex
            ? "Regular expressions, as /pattern/flags or a bare pattern. Press Enter after each."
            : "Words that bring this entry in when a message mentions them. Press Enter or type a comma after each."
        }
        value={entry.keys}
        commaSeparates={!entry.use_regex}
        error={errors.keys}
        onChange={(keys) => set("keys", keys)}
      />
      <CountedField
        id={id("content")}
        label="Content"
        length={entry.content.length}
        max={LORE_ENTRY_CONTENT_MAX}
        error={errors.content}
        hint="What the model is told when the entry is used."
      >
        <TextArea
          {...describedBy(id("content"), { error: errors.content, hint: true, count: true })}
          value={entry.content}
          rows={4}
          onChange={(event) => set("content", event.target.value)}
        />
      </CountedField>
      <div className="grid gap-3 sm:grid-cols-2">
        <CheckboxField
          id={id("enabled")}
          label="Enabled"
          hint="Off keeps the entry but never uses it."
          checked={entry.enabled}
          onChange={(checked) => set("enabled", checked)}
        />
        <CheckboxField
          id={id("constant")}
          label="Constant"
          hint="Always in the prompt, keys or not."
          checked={entry.constant}
          onChange={(checked) => set("constant", checked)}
        />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <CountedField id={id("position")} label="Position" error={errors.position}>
          <Select
            {...describedBy(id("position"), { error: errors.position })}
            value={entry.position}
            onChange={(event) => set("position", event.target.value as LorePosition)}
          >
            {lorePosition.options.map((option) => (
              <option key={option} value={option}>
                {positionLabel[option]}
              </option>
            ))}
          </Select>
        </CountedField>
        {entry.position === "at_depth" ? (
          <NumberField
            id={id("depth")}
            label="Depth"
            hint="Messages back from the newest."
            value={entry.depth}
            range={range("depth")}
            error={errors.depth}
            onChange={(value) => set("depth", value ?? Number.NaN)}
          />
        ) : null}
        <NumberField
          id={id("insertion_order")}
          label="Insertion order"
          hint="Lower comes first in the prompt."
          value={entry.insertion_order}
          range={range("insertion_order")}
          error={errors.insertion_order}
          onChange={(value) => set("insertion_order", value ?? Number.NaN)}
        />
      </div>
      <div className="flex flex-col gap-4 rounded-lg border border-border p-3 sm:p-4">
        <CheckboxField
          id={id("selective")}
          label="Selective"
          hint="Also check secondary keys when a key matches."
          checked={entry.selective}
          onChange={(checked) => set("selective", checked)}
        />
        {entry.selective ? (
          <>
            <CountedField
              id={id("logic")}
              label="Secondary keys logic"
              error={errors.logic}
              hint="Which of the secondary keys the message must also hold (AND) or must not hold (NOT)."
            >
              <Select
                {...describedBy(id("logic"), { error: errors.logic, hint: true })}
                value={entry.logic}
                onChange={(event) => set("logic", event.target.value as LoreLogic)}
              >
                {loreLogic.options.map((option) => (
                  <option key={option} value={option}>
                    {logicLabel[option]}
                  </option>
                ))}
              </Select>
            </CountedField>
            <KeyInput
              id={id("secondary_keys")}
              label="Secondary keys"
              hint="Checked by the logic above once a key has matched."
              value={entry.secondary_keys}
              commaSeparates={!entry.use_regex}
              error={errors.secondary_keys}
              onChange={(keys) => set("secondary_keys", keys)}
            />
          </>
        ) : null}
      </div>
      <details className="group rounded-lg border border-border" open={advancedErrors || undefined}>
        <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg p-3 text-sm font-medium sm:px-4 [&::-webkit-details-marker]:hidden">
          <ChevronRight aria-hidden className="size-4 transition group-open:rotate-90" />
          Advanced
          <span className="min-w-0 truncate font-normal text-muted">Matching, chance, recursion</span>
        </summary>
        <div className="flex flex-col gap-5 px-3 pb-4 sm:px-4">
          <div className="grid gap-3 sm:grid-cols-2">
            <CheckboxField
              id={id("case_sensitive")}
              label="Case sensitive"
              checked={entry.case_sensitive}
              onChange={(checked) => set("case_sensitive", checked)}
            />
            <CheckboxField
              id={id("whole_words")}
              label="Whole words only"
              checked={entry.whole_words}
              onChange={(checked) => set("whole_words", checked)}
            />
            <CheckboxField
              id={id("use_regex")}
              label="Keys are regular expressions"
              checked={entry.use_regex}
              onChange={(checked) => set("use_regex", checked)}
            />
            <CheckboxField
              id={id("exclude_recursion")}
              label="Not activated by other entries"
              hint="Only messages can bring it in."
              checked={entry.exclude_recursion}
              onChange={(checked) => set("exclude_recursion", checked)}
            />
            <CheckboxField
              id={id("prevent_recursion")}
              label="Doesn't activate other entries"
              hint="Its text isn't scanned for keys."
              checked={entry.prevent_recursion}
              onChange={(checked) => set("prevent_recursion", checked)}
            />
          </div>
          <div className="grid gap-5 sm:grid-cols-3">
            <NumberField
              id={id("priority")}
              label="Priority"
              hint="Lower is dropped first when over budget."
              value={entry.priority}
              range={range("priority")}
              error={errors.priority}
              onChange={(value) => set("priority", value ?? Number.NaN)}
            />
            <NumberField
              id={id("probability")}
              label="Probability (%)"
              hint="Chance a match is used."
              value={entry.probability}
              range={range("probability")}
              error={errors.probability}
              onChange={(value) => set("probability", value ?? Number.NaN)}
            />
            <NumberField
              id={id("scan_depth")}
              label="Scan depth"
              hint="Empty uses the book's."
              nullable
              placeholder="Book's"
              value={entry.scan_depth}
              range={range("scan_depth")}
              error={errors.scan_depth}
              onChange={(value) => set("scan_depth", value)}
            />
          </div>
        </div>
      </details>
    </div>
  );
}
