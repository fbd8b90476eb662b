import { useEffect, useState } from "react";
import { Input } from "../../ui/input.tsx";
import { CountedField, describedBy } from "../characters/form-controls.tsx";

const parse = (text: string) => (/^-?\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN);

/**
 * A whole-number field. The text is kept as typed ("-" on the way to "-5" stays); the value is
 * NaN while it isn't a whole number, which the contract's check reports, or null when a
 * nullable field is emptied.
 */
export function NumberField({
  id,
  label,
  value,
  onChange,
  range,
  nullable,
  placeholder,
  hint,
  error,
}: {
  id: string;
  label: string;
  value: number | null;
  onChange: (value: number | null) => void;
  range: [number, number];
  nullable?: boolean;
  placeholder?: string;
  hint?: string;
  error?: string;
}) {
  const [text, setText] = useState(value === null || Number.isNaN(value) ? "" : String(value));
  // Follow changes from outside (a move renumbers insertion orders) without fighting the typing.
  useEffect(() => {
    setText((current) => {
      const typed = current.trim() === "" && nullable ? null : parse(current);
      if (typed === value || (Number.isNaN(typed) && Number.isNaN(value))) return current;
      return value === null || Number.isNaN(value) ? "" : String(value);
    });
  }, [value, nullable]);

  const n = (x: number) => x.toLocaleString("en-US");
  const help = `${hint ? `${hint} ` : ""}${n(range[0])} to ${n(range[1])}.`;
  return (
    <CountedField id={id} label={label} error={error} hint={help}>
      <Input
        {...describedBy(id, { error, hint: true })}
        type="text"
        inputMode="numeric"
        value={text}
        placeholder={placeholder}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          onChange(next.trim() === "" && nullable ? null : parse(next));
        }}
        className="tabular-nums"
      />
    </CountedField>
  );
}
