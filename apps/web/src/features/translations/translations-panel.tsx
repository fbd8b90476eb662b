import type { CharacterTranslation } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Languages } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { useNotice } from "../../lib/app-settings.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Input } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import { TextArea } from "../characters/form-controls.tsx";
import { translationsQuery, useDeleteTranslation, useSaveTranslation } from "./api.ts";

const FIELDS = [
  ["name", "Translated name"],
  ["title", "Translated title"],
  ["greeting", "Translated greeting"],
  ["persona", "Translated personality"],
  ["scenario", "Translated scenario"],
  ["dialogue", "Translated example dialogues"],
] as const;
type FieldKey = (typeof FIELDS)[number][0];
type Values = Record<FieldKey, string>;

const empty: Values = { name: "", title: "", greeting: "", persona: "", scenario: "", dialogue: "" };
const valuesOf = (t: CharacterTranslation): Values =>
  Object.fromEntries(FIELDS.map(([k]) => [k, t[k] ?? ""])) as Values;

/**
 * The editor's translations (issue 17 item 5): the bot's text fields in other languages, served
 * to readers who ask for the profile in one (`?language=` or their browser's language). A field
 * left empty keeps the original's text.
 */
export function TranslationsPanel({ characterId }: { characterId: string }) {
  const ids = useId();
  const [open, setOpen] = useState(false);
  const list = useQuery({ ...translationsQuery(characterId), enabled: open });
  const save = useSaveTranslation(characterId);
  const remove = useDeleteTranslation(characterId);
  const [language, setLanguage] = useState("");
  const [values, setValues] = useState<Values>(empty);
  const [notice, setNotice] = useNotice();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = Object.fromEntries(FIELDS.map(([k]) => [k, values[k].trim() || null]));
    try {
      const saved = await save.mutateAsync({ language: language.trim().toLowerCase(), body });
      setNotice(`Translation ${saved.language} saved.`);
    } catch {
      // Shown from save.error.
    }
  };

  return (
    // Its fields exist only while it is open, so the editor's own fields stay the only ones by their names.
    <details className="rounded-lg border border-border p-4" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary className="flex cursor-pointer items-center gap-2 font-semibold">
        <Languages aria-hidden className="size-4" />
        Translations
      </summary>
      {open ? (
        <div className="mt-4 flex flex-col gap-4">
          <p className="text-sm text-muted">
            Readers who ask for the profile in one of these languages see your translation. Empty fields keep
            the original text.
          </p>
          {list.data && list.data.translations.length > 0 ? (
            <ul aria-label="Translations" className="flex flex-wrap gap-2">
              {list.data.translations.map((t) => (
                <li
                  key={t.language}
                  className="flex items-center gap-1 rounded-md border border-border px-2 py-1"
                >
                  <Button
                    variant="link"
                    size="sm"
                    onClick={() => {
                      setLanguage(t.language);
                      setValues(valuesOf(t));
                    }}
                  >
                    Edit {t.language}
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Delete the ${t.language} translation`}
                    onClick={() =>
                      remove.mutate(t.language, {
                        onSuccess: () => setNotice(`Translation ${t.language} deleted.`),
                      })
                    }
                  >
                    Delete
                  </Button>
                </li>
              ))}
            </ul>
          ) : null}
          {save.error ? <Banner tone="danger">{errorMessage(save.error)}</Banner> : null}
          <form noValidate onSubmit={submit} className="flex flex-col gap-3" aria-label="Translation">
            <Field id={`${ids}-language`} label="Language code (es, pt-br…)">
              <Input
                {...fieldControlProps(`${ids}-language`)}
                value={language}
                maxLength={16}
                onChange={(e) => setLanguage(e.target.value)}
                className="max-w-40"
              />
            </Field>
            {FIELDS.map(([key, label]) => (
              <Field key={key} id={`${ids}-${key}`} label={label}>
                {key === "name" || key === "title" ? (
                  <Input
                    {...fieldControlProps(`${ids}-${key}`)}
                    value={values[key]}
                    onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
                  />
                ) : (
                  <TextArea
                    {...fieldControlProps(`${ids}-${key}`)}
                    value={values[key]}
                    onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
                  />
                )}
              </Field>
            ))}
            <Button type="submit" loading={save.isPending} disabled={!language.trim()} className="self-start">
              Save translation
            </Button>
          </form>
          <p role="status" className={notice ? "text-sm text-success" : "sr-only"}>
            {notice}
          </p>
        </div>
      ) : null}
    </details>
  );
}
