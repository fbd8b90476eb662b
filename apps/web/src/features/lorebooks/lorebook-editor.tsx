import { LORE_ENTRIES_MAX } from "@hearth/contract";
import { BookOpen, Plus } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { CheckboxField, CountedField, describedBy, TextArea } from "../characters/form-controls.tsx";
import {
  type BookErrors,
  type BookValues,
  duplicateEntry,
  type EntryValues,
  entryErrors,
  moveEntry,
  newEntry,
  numberRange,
  sortedEntries,
} from "./book-values.ts";
import { EntryItem } from "./entry-item.tsx";
import { NumberField } from "./number-field.tsx";
import { TestBox } from "./test-box.tsx";

interface LorebookEditorProps {
  value: BookValues;
  onChange: (book: BookValues) => void;
  /** Standalone books have a name (required); a character's book goes by the character's. */
  named: boolean;
  /** The contract's complaints, shown once a save was tried. */
  errors: BookErrors;
  /** The level of the editor's own headings (Entries, Test a message), under the page's. */
  headingLevel: 2 | 3;
}

/** Focus the first field of a just-opened entry once React has drawn it. */
function focusEntry(id: string) {
  requestAnimationFrame(() => {
    const form = document.querySelector(`[data-entry-form="${CSS.escape(id)}"]`);
    form?.querySelector<HTMLElement>("input, textarea")?.focus();
  });
}

/**
 * A lorebook's settings, its entries (in prompt order, each opened to its form) and the test box.
 * Controlled: the parent keeps the book and decides when it is saved.
 */
export function LorebookEditor({ value, onChange, named, errors, headingLevel }: LorebookEditorProps) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const base = useId();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const set = <K extends keyof BookValues>(key: K, v: BookValues[K]) => onChange({ ...value, [key]: v });
  const entries = sortedEntries(value.entries);
  const full = value.entries.length >= LORE_ENTRIES_MAX;

  // Entries with problems open, so their messages are seen.
  const failing = Object.keys(errors)
    .filter((key) => key.includes("."))
    .map((key) => key.slice(0, key.lastIndexOf(".")))
    .join("\n");
  useEffect(() => {
    if (failing) setExpanded((current) => new Set([...current, ...failing.split("\n")]));
  }, [failing]);

  const toggle = (id: string, open?: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (open ?? !next.has(id)) next.add(id);
      else next.delete(id);
      return next;
    });

  const replaceEntry = (entry: EntryValues) =>
    set(
      "entries",
      value.entries.map((e) => (e.id === entry.id ? entry : e)),
    );

  const add = (entry: EntryValues) => {
    set("entries", [...value.entries, entry]);
    toggle(entry.id, true);
    focusEntry(entry.id);
  };

  const remove = (id: string) => {
    set(
      "entries",
      value.entries.filter((e) => e.id !== id),
    );
    toggle(id, false);
    requestAnimationFrame(() => document.getElementById(`${base}-add`)?.focus());
  };

  return (
    <div className="flex min-w-0 flex-col gap-5" data-lorebook-editor>
      <div className="flex flex-col gap-5">
        {named ? (
          <CountedField
            id={`${base}-name`}
            label="Name"
            length={value.name.length}
            max={100}
            error={errors.name}
          >
            <Input
              {...describedBy(`${base}-name`, { error: errors.name, count: true })}
              value={value.name}
              placeholder="The Shattered Coast"
              onChange={(event) => set("name", event.target.value)}
            />
          </CountedField>
        ) : null}
        <CountedField
          id={`${base}-description`}
          label="Description"
          length={value.description.length}
          max={2000}
          error={errors.description}
          optional
        >
          <TextArea
            {...describedBy(`${base}-description`, { error: errors.description, count: true })}
            value={value.description}
            rows={2}
            className="min-h-16"
            onChange={(event) => set("description", event.target.value)}
          />
        </CountedField>
        <div className="grid gap-5 sm:grid-cols-2">
          <NumberField
            id={`${base}-scan-depth`}
            label="Scan depth"
            hint="Newest messages searched for keys."
            value={value.scan_depth}
            range={numberRange("scan_depth") as [number, number]}
            error={errors.scan_depth}
            onChange={(v) => set("scan_depth", v ?? Number.NaN)}
          />
          <NumberField
            id={`${base}-token-budget`}
            label="Token budget"
            hint="Tokens all used entries may take together."
            value={value.token_budget}
            range={numberRange("token_budget") as [number, number]}
            error={errors.token_budget}
            onChange={(v) => set("token_budget", v ?? Number.NaN)}
          />
        </div>
        <CheckboxField
          id={`${base}-recursive`}
          label="Recursive scanning"
          hint="Entries brought in can bring in others through their own text (a few levels deep)."
          checked={value.recursive_scanning}
          onChange={(checked) => set("recursive_scanning", checked)}
        />
      </div>

      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <Heading className="text-base font-semibold">Entries</Heading>
          <span className="text-xs text-muted tabular-nums">
            {value.entries.length} / {LORE_ENTRIES_MAX}
            <span className="sr-only"> entries</span>
          </span>
        </div>
        {errors.entries ? (
          <p role="alert" className="text-sm text-danger">
            {errors.entries}
          </p>
        ) : null}
        {entries.length === 0 ? (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border-strong px-4 py-6 text-center text-sm">
            <BookOpen aria-hidden className="size-5 text-accent-text" />
            <p className="font-medium">No entries yet</p>
            <p className="max-w-sm text-muted">
              An entry is a piece of lore, such as a place, a person or a rule, that joins the prompt when its
              keys come up.
            </p>
          </div>
        ) : (
          <ul className="flex flex-col gap-2" aria-label="Entries">
            {entries.map((entry, index) => (
              <EntryItem
                key={entry.id}
                entry={entry}
                index={index}
                count={entries.length}
                expanded={expanded.has(entry.id)}
                errors={entryErrors(errors, entry.id)}
                onToggle={() => toggle(entry.id)}
                onChange={replaceEntry}
                onMove={(direction) => set("entries", moveEntry(value.entries, entry.id, direction))}
                onDuplicate={() => add(duplicateEntry(entry))}
                onDelete={() => remove(entry.id)}
              />
            ))}
          </ul>
        )}
        <Button
          id={`${base}-add`}
          variant="outline"
          size="sm"
          className="self-start"
          disabled={full}
          onClick={() => add(newEntry(value))}
        >
          <Plus aria-hidden />
          Add entry
        </Button>
      </div>

      <TestBox book={value} headingLevel={headingLevel} />
    </div>
  );
}
