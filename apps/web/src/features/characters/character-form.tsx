import type { Visibility } from "@hearth/contract";
import { characterLimits, visibilityHelp, visibilityTitle } from "@hearth/contract/labels";
import { ChevronRight, Plus, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Input, Select } from "../../ui/input.tsx";
import { CharacterBookSection } from "../lorebooks/character-book-section.tsx";
import type { CharacterFormValues } from "./drafts.ts";
import { CheckboxField, CountedField, describedBy, FormSection, TextArea } from "./form-controls.tsx";
import { PromptCostSummary, usePromptCost } from "./prompt-cost.tsx";
import { TagInput } from "./tag-input.tsx";
import type { FieldErrors } from "./validation.ts";

const languageCodes = [
  "en",
  "es",
  "fr",
  "de",
  "it",
  "pt",
  "nl",
  "pl",
  "ru",
  "uk",
  "tr",
  "ar",
  "hi",
  "id",
  "vi",
  "th",
  "ja",
  "ko",
  "zh",
];

function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}

const choosableVisibility: Visibility[] = ["public", "hidden", "private"];

interface CharacterFormProps {
  values: CharacterFormValues;
  onChange: (values: CharacterFormValues) => void;
  errors: FieldErrors;
  /** Edits blocked (the bot is in the review queue). */
  disabled?: boolean;
  /** The avatar picker, which differs between create and edit. */
  avatar: ReactNode;
}

/** Every field of a chatbot, shared by the create page and the editor. */
export function CharacterForm({ values, onChange, errors, disabled, avatar }: CharacterFormProps) {
  const set = <K extends keyof CharacterFormValues>(key: K, value: CharacterFormValues[K]) =>
    onChange({ ...values, [key]: value });

  const text = (
    key: "name" | "title" | "greeting" | "persona" | "personality" | "scenario" | "dialogue",
    label: string,
    options: { hint?: string; placeholder?: string; multiline?: boolean; optional?: boolean; rows?: number },
  ) => {
    const id = `character-${key}`;
    const control = {
      ...describedBy(id, { error: errors[key], hint: Boolean(options.hint), count: true }),
      value: values[key],
      disabled,
      placeholder: options.placeholder,
    };
    return (
      <CountedField
        id={id}
        label={label}
        length={values[key].length}
        max={characterLimits[key]}
        error={errors[key]}
        hint={options.hint}
        optional={options.optional}
      >
        {options.multiline ? (
          <TextArea
            {...control}
            rows={options.rows ?? 4}
            onChange={(event) => set(key, event.target.value)}
          />
        ) : (
          <Input {...control} onChange={(event) => set(key, event.target.value)} />
        )}
      </CountedField>
    );
  };

  const languages = languageCodes.includes(values.language)
    ? languageCodes
    : [values.language, ...languageCodes];

  return (
    <fieldset disabled={disabled} className="flex min-w-0 flex-col gap-5 sm:gap-6">
      <legend className="sr-only">Chatbot details</legend>
      <FormSection title="Basics" description="How your chatbot appears in lists and on its profile.">
        {avatar}
        {text("name", "Name", { placeholder: "Mira the Cartographer" })}
        {text("title", "Title", {
          hint: "One line under the name on cards.",
          placeholder: "A wandering mapmaker who knows every shortcut",
          optional: true,
        })}
        <TagInput
          id="character-tags"
          value={values.tags}
          disabled={disabled}
          error={errors.tags}
          onChange={(tags) => set("tags", tags)}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <CountedField id="character-language" label="Language" error={errors.language}>
            <Select
              {...describedBy("character-language", { error: errors.language })}
              value={values.language}
              onChange={(event) => set("language", event.target.value)}
            >
              {languages.map((code) => (
                <option key={code} value={code}>
                  {languageName(code)}
                </option>
              ))}
            </Select>
          </CountedField>
        </div>
        <div className="flex flex-col gap-3">
          <CheckboxField
            id="character-nsfw"
            label="NSFW chatbot"
            hint="Adult themes. It is listed only for people who turned NSFW on."
            checked={values.is_nsfw}
            disabled={disabled}
            onChange={(checked) => set("is_nsfw", checked)}
          />
          <CheckboxField
            id="character-avatar-nsfw"
            label="NSFW avatar"
            hint="The picture is blurred for people who haven't turned NSFW on."
            checked={values.avatar_is_nsfw}
            disabled={disabled}
            onChange={(checked) => set("avatar_is_nsfw", checked)}
          />
        </div>
      </FormSection>

      <FormSection
        title="Greetings"
        description="The first message of every new chat, and alternatives to it."
      >
        {text("greeting", "Greeting", {
          multiline: true,
          rows: 5,
          placeholder: "*Mira unrolls a map across the table.* Where to, traveller?",
        })}
        <AlternateGreetings
          greetings={values.alternate_greetings}
          disabled={disabled}
          error={errors.alternate_greetings}
          onChange={(greetings) => set("alternate_greetings", greetings)}
        />
      </FormSection>

      <FormSection title="Definition" description="What the AI is told about the character.">
        {text("persona", "Personality", {
          multiline: true,
          rows: 6,
          hint: "Who the character is: looks, manner, history, what they want.",
        })}
        {text("personality", "Personality summary", {
          multiline: true,
          rows: 3,
          hint: "A short summary of their temperament (a character card's personality field). The AI reads it after the personality above.",
          placeholder: "Curious, dry humour, fiercely loyal",
          optional: true,
        })}
        {text("scenario", "Scenario", {
          multiline: true,
          hint: "Where and when the chat takes place.",
          optional: true,
        })}
        {text("dialogue", "Example dialogue", {
          multiline: true,
          rows: 6,
          hint: "A few sample lines in the character's voice. Use {{char}} and {{user}} for the speakers.",
          optional: true,
        })}
        <DefinitionCost values={values} />
        <CheckboxField
          id="character-definition-visible"
          label="Show the definition on the profile"
          hint="Lets others read the personality, scenario and example dialogue. Off keeps them to you."
          checked={values.definition_visible}
          disabled={disabled}
          onChange={(checked) => set("definition_visible", checked)}
        />
      </FormSection>

      <CharacterBookSection
        value={values.character_book ?? null}
        error={errors.character_book}
        disabled={disabled}
        onChange={(book) => set("character_book", book)}
      />

      <FormSection title="Visibility" description="Who can find and chat with this chatbot.">
        <VisibilityField
          value={values.visibility}
          disabled={disabled}
          onChange={(visibility) => set("visibility", visibility)}
        />
      </FormSection>

      <details className="group rounded-xl border border-border bg-surface open:pb-2">
        <summary className="flex cursor-pointer list-none items-center gap-2 rounded-xl p-4 font-semibold sm:px-6 [&::-webkit-details-marker]:hidden">
          <ChevronRight aria-hidden className="size-4 transition group-open:rotate-90" />
          Advanced
          <span className="text-sm font-normal text-muted">System prompt, instructions, creator notes</span>
        </summary>
        <div className="flex flex-col gap-5 px-4 pb-4 sm:px-6 sm:pb-4">
          {(
            [
              [
                "system_prompt",
                "System prompt",
                "Replaces the server's default instructions for this chatbot.",
              ],
              [
                "post_history_instructions",
                "Post-history instructions",
                "Sent after the chat history, just before each reply.",
              ],
              ["creator_notes", "Creator notes", "Shown to people who import or export the card."],
            ] as const
          ).map(([key, label, hint]) => {
            const id = `character-${key}`;
            return (
              <CountedField
                key={key}
                id={id}
                label={label}
                length={values[key].length}
                max={characterLimits[key]}
                error={errors[key]}
                hint={hint}
                optional
              >
                <TextArea
                  {...describedBy(id, { error: errors[key], hint: true, count: true })}
                  value={values[key]}
                  onChange={(event) => set(key, event.target.value)}
                />
              </CountedField>
            );
          })}
        </div>
      </details>
    </fieldset>
  );
}

/** The definition's tokens against the default model's window, priced as the creator types. */
function DefinitionCost({ values }: { values: CharacterFormValues }) {
  const cost = usePromptCost({
    name: values.name,
    greeting: values.greeting,
    persona: values.persona,
    personality: values.personality,
    scenario: values.scenario,
    dialogue: values.dialogue,
    system_prompt: values.system_prompt,
    post_history_instructions: values.post_history_instructions,
  });
  return cost.data ? <PromptCostSummary cost={cost.data} /> : null;
}

function AlternateGreetings({
  greetings,
  disabled,
  error,
  onChange,
}: {
  greetings: string[];
  disabled?: boolean;
  error?: string;
  onChange: (greetings: string[]) => void;
}) {
  return (
    <div className="flex flex-col gap-3">
      {greetings.map((greeting, index) => {
        const id = `character-alternate-greeting-${index}`;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: greetings are plain strings; their place ("Alternate greeting N") is their identity
          <div key={index} className="flex flex-col gap-1.5">
            <CountedField
              id={id}
              label={`Alternate greeting ${index + 1}`}
              length={greeting.length}
              max={characterLimits.alternate_greeting}
            >
              <TextArea
                {...describedBy(id, { count: true })}
                value={greeting}
                rows={3}
                onChange={(event) =>
                  onChange(greetings.map((g, i) => (i === index ? event.target.value : g)))
                }
              />
            </CountedField>
            <Button
              variant="ghost"
              size="sm"
              className="self-end"
              disabled={disabled}
              onClick={() => onChange(greetings.filter((_, i) => i !== index))}
            >
              <Trash2 aria-hidden />
              Remove alternate greeting {index + 1}
            </Button>
          </div>
        );
      })}
      {error ? (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <Button
        variant="outline"
        size="sm"
        className="self-start"
        disabled={disabled || greetings.length >= characterLimits.alternate_greetings}
        onClick={() => onChange([...greetings, ""])}
      >
        <Plus aria-hidden />
        Add alternate greeting
      </Button>
    </div>
  );
}

function VisibilityField({
  value,
  disabled,
  onChange,
}: {
  value: Visibility;
  disabled?: boolean;
  onChange: (value: Visibility) => void;
}) {
  // A bot moderators made permanently private keeps that value; the choice is locked.
  const locked = value === "permanently_private";
  const options = locked ? (["permanently_private"] as Visibility[]) : choosableVisibility;
  return (
    <div role="radiogroup" aria-label="Visibility" className="grid gap-2 sm:grid-cols-3">
      {options.map((option) => (
        <label
          key={option}
          className={cn(
            "flex cursor-pointer flex-col gap-1 rounded-lg border p-3 transition has-focus-visible:outline-2 has-focus-visible:outline-ring",
            value === option ? "border-accent bg-accent-soft" : "border-border hover:border-border-strong",
            (disabled || locked) && "cursor-not-allowed",
          )}
        >
          <span className="flex items-center gap-2 text-sm font-medium">
            <input
              type="radio"
              name="character-visibility"
              value={option}
              checked={value === option}
              disabled={disabled || locked}
              onChange={() => onChange(option)}
              className="size-4 accent-(--brand-accent)"
            />
            {visibilityTitle[option]}
          </span>
          <span className="pl-6 text-sm text-muted">{visibilityHelp[option]}</span>
        </label>
      ))}
    </div>
  );
}
