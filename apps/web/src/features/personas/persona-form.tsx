import type { Persona } from "@hearth/contract";
import { personaLimits } from "@hearth/contract/labels";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useBlocker, useNavigate } from "@tanstack/react-router";
import { ArrowLeft, Check } from "lucide-react";
import { type FormEvent, useRef, useState } from "react";
import { isApiRequestError } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Dialog, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Input } from "../../ui/input.tsx";
import { AvatarField } from "../characters/avatar-field.tsx";
import { CountedField, describedBy, TextArea } from "../characters/form-controls.tsx";
import { useObjectUrl } from "../characters/use-object-url.ts";
import {
  createPersona,
  personaError,
  personaErrorMessage,
  removePersonaAvatar,
  updatePersona,
  uploadPersonaAvatar,
} from "./api.ts";
import { keepReturn, usePersonasReturn } from "./return-state.ts";

const avatarErrorKey = (id: string) => `hearth.personaAvatarError.${id}`;

/** An avatar that failed to upload right after creating, shown once on the edit page. */
function takeAvatarError(id: string | undefined): string | null {
  if (!id) return null;
  try {
    const message = sessionStorage.getItem(avatarErrorKey(id));
    sessionStorage.removeItem(avatarErrorKey(id));
    return message;
  } catch {
    return null;
  }
}

type Errors = Partial<Record<"name" | "highlights", string>>;

function validate(name: string, highlights: string): Errors {
  const errors: Errors = {};
  if (!name.trim()) errors.name = "A name is required";
  else if (name.trim().length > personaLimits.name) errors.name = `At most ${personaLimits.name} characters`;
  else if (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(name.trim())) errors.name = "A name is one line of text";
  if (highlights.trim().length > personaLimits.highlights)
    errors.highlights = `At most ${personaLimits.highlights} characters`;
  return errors;
}

/**
 * The Persona page's form (create at /personas/create, edit at /personas/edit/{id}): name,
 * avatar and highlights. Saving returns to My Personas, keeping the way back to a chat.
 */
export function PersonaForm({ persona }: { persona?: Persona }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const back = usePersonasReturn();
  const [name, setName] = useState(persona?.name ?? "");
  const [highlights, setHighlights] = useState(persona?.highlights ?? "");
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<{ message: string; detail: string | null } | null>(null);
  const [saving, setSaving] = useState(false);
  const [avatarUrl, setAvatarUrl] = useState(persona?.avatar_url ?? null);
  const [avatarFile, setAvatarFile] = useState<File | null>(null);
  const [avatarProgress, setAvatarProgress] = useState<number | null>(null);
  const [avatarError, setAvatarError] = useState<string | null>(() => takeAvatarError(persona?.id));
  const preview = useObjectUrl(avatarFile);
  const leaving = useRef(false);

  const dirty =
    name !== (persona?.name ?? "") || highlights !== (persona?.highlights ?? "") || avatarFile !== null;
  const blocker = useBlocker({
    shouldBlockFn: () => dirty && !leaving.current,
    enableBeforeUnload: () => dirty && !leaving.current,
    withResolver: true,
  });

  const done = () => {
    leaving.current = true;
    void navigate({ to: "/personas", state: keepReturn(back) });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(name, highlights);
    setErrors(found);
    setFailure(null);
    if (found.name) document.getElementById("persona-name")?.focus();
    else if (found.highlights) document.getElementById("persona-highlights")?.focus();
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      if (!persona) {
        const created = await createPersona(queryClient, {
          name: name.trim(),
          highlights: highlights.trim(),
        });
        if (avatarFile) {
          try {
            await uploadPersonaAvatar(queryClient, created.id, avatarFile, (p) =>
              setAvatarProgress(p.fraction ?? Number.NaN),
            );
          } catch (caught) {
            // The persona exists: carry on to its edit page, where the picture can be tried again.
            try {
              sessionStorage.setItem(avatarErrorKey(created.id), personaErrorMessage(caught));
            } catch {}
            leaving.current = true;
            void navigate({
              to: `/personas/edit/${encodeURIComponent(created.id)}`,
              replace: true,
              state: keepReturn(back),
            });
            return;
          }
        }
        done();
        return;
      }
      const change = {
        ...(name.trim() !== persona.name ? { name: name.trim() } : {}),
        ...(highlights.trim() !== persona.highlights ? { highlights: highlights.trim() } : {}),
      };
      if (Object.keys(change).length) await updatePersona(queryClient, persona.id, change);
      done();
    } catch (caught) {
      const fieldIssues = isApiRequestError(caught) ? (caught.issues ?? []) : [];
      const nameIssue = fieldIssues.find((issue) => issue.path === "name");
      if (nameIssue) {
        setErrors({ name: nameIssue.message });
        document.getElementById("persona-name")?.focus();
      }
      setFailure(personaError(caught));
    } finally {
      setSaving(false);
      setAvatarProgress(null);
    }
  };

  const pickAvatar = async (file: File) => {
    setAvatarError(null);
    if (!persona) {
      setAvatarFile(file);
      return;
    }
    setAvatarProgress(0);
    try {
      const saved = await uploadPersonaAvatar(queryClient, persona.id, file, (p) =>
        setAvatarProgress(p.fraction ?? Number.NaN),
      );
      setAvatarUrl(saved.avatar_url);
    } catch (caught) {
      setAvatarError(personaErrorMessage(caught));
    } finally {
      setAvatarProgress(null);
    }
  };

  const dropAvatar = async () => {
    setAvatarError(null);
    if (!persona) {
      setAvatarFile(null);
      return;
    }
    try {
      setAvatarUrl((await removePersonaAvatar(queryClient, persona.id)).avatar_url);
    } catch (caught) {
      setAvatarError(personaErrorMessage(caught));
    }
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-5 sm:gap-6" aria-label="Persona">
      {failure ? (
        <Banner tone="danger" title={failure.detail ? failure.message : undefined}>
          {failure.detail ?? failure.message}
        </Banner>
      ) : null}
      <AvatarField
        name={name.trim() || "New persona"}
        src={persona ? avatarUrl : preview}
        progress={avatarProgress}
        error={avatarError}
        note={persona ? undefined : "PNG, JPEG, WebP or GIF. Uploaded when you save."}
        disabled={saving}
        onPick={(file) => void pickAvatar(file)}
        onRemove={() => void dropAvatar()}
      />
      <CountedField
        id="persona-name"
        label="Name"
        length={name.length}
        max={personaLimits.name}
        error={errors.name}
      >
        <Input
          {...describedBy("persona-name", { error: errors.name, count: true })}
          value={name}
          maxLength={personaLimits.name}
          autoComplete="off"
          placeholder="What characters call you"
          disabled={saving}
          onChange={(event) => {
            setName(event.target.value);
            if (errors.name) setErrors({ ...errors, name: undefined });
          }}
        />
      </CountedField>
      <CountedField
        id="persona-highlights"
        label="Highlights"
        optional
        length={highlights.length}
        max={personaLimits.highlights}
        error={errors.highlights}
        hint="Who you are in the story: looks, personality, background. Characters read this."
      >
        <TextArea
          {...describedBy("persona-highlights", { error: errors.highlights, hint: true, count: true })}
          value={highlights}
          maxLength={personaLimits.highlights}
          rows={5}
          placeholder="A wandering cartographer with ink-stained fingers and a soft spot for old legends."
          disabled={saving}
          onChange={(event) => setHighlights(event.target.value)}
        />
      </CountedField>
      <div className="flex flex-col-reverse gap-2 border-t border-border pt-5 sm:flex-row sm:justify-end">
        <Button asChild variant="outline">
          <Link to="/personas" state={keepReturn(back)}>
            <ArrowLeft aria-hidden />
            Back to My Personas
          </Link>
        </Button>
        <Button type="submit" loading={saving} disabled={persona !== undefined && !dirty}>
          {saving ? null : <Check aria-hidden />}
          Save
        </Button>
      </div>

      <Dialog open={blocker.status === "blocked"} onOpenChange={(open) => !open && blocker.reset?.()}>
        {blocker.status === "blocked" ? (
          <DialogContent title="Unsaved Changes" description="Your persona isn't saved yet. Leave anyway?">
            <DialogFooter>
              <Button variant="outline" onClick={() => blocker.reset()}>
                Stay and keep editing
              </Button>
              <Button variant="danger" onClick={() => blocker.proceed()}>
                Leave without saving
              </Button>
            </DialogFooter>
          </DialogContent>
        ) : null}
      </Dialog>
    </form>
  );
}
