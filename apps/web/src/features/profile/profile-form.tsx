import {
  accountEndpoints,
  benefitTitle,
  LLM_KEY_MAX,
  type LlmMode,
  type Me,
  type Permission,
  type ProfileSettings,
  type ProfileUpdate,
  roleTitle,
} from "@hearth/contract";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useBlocker } from "@tanstack/react-router";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { errorMessage, isApiRequestError } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { meQuery } from "../../lib/session.ts";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { Dialog, DialogContent, DialogFooter } from "../../ui/dialog.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import { DeleteAccountDialog } from "../account-deletion/delete-account-dialog.tsx";
import { useSessionActions } from "../auth/use-session-actions.ts";
import { useShowNsfw } from "../characters/preferences.ts";
import { profileSettingsQuery } from "./api.ts";
import { ProfileAvatar } from "./profile-avatar.tsx";

type FieldName = "username" | "name" | "highlights" | "openai_api_key" | "form";
const SAVED_FOR_MS = 3000;

/** The viewer's permissions that are benefits, in words, for the 'Your Benefits' chips. */
export const benefitsOf = (permissions: readonly Permission[]): string[] =>
  permissions.flatMap((p) => benefitTitle[p] ?? []);

/**
 * Profile settings (accounts-billing-admin §2.2): the fields, Update (only what changed), Logout,
 * Remove Account, and the 'Unsaved Changes' dialog when leaving with changes.
 */
export function ProfileForm({ me, settings }: { me: Me; settings: ProfileSettings }) {
  const queryClient = useQueryClient();
  const { signOut } = useSessionActions();
  const [, setLocalNsfw] = useShowNsfw();
  const [username, setUsername] = useState(me.username ?? "");
  const [name, setName] = useState(me.name);
  const [highlights, setHighlights] = useState(settings.highlights);
  const [showNsfw, setShowNsfw] = useState(settings.show_nsfw);
  const [key, setKey] = useState("");
  const [mode, setMode] = useState<LlmMode>(settings.openai_mode);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [askAdult, setAskAdult] = useState(false);
  const adultConfirmed = settings.adult_confirmed;
  const [removing, setRemoving] = useState(false);
  const [removingKey, setRemovingKey] = useState(false);

  // Browsing follows the account's NSFW setting on this device too.
  useEffect(() => setLocalNsfw(settings.show_nsfw), [settings.show_nsfw, setLocalNsfw]);
  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), SAVED_FOR_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  const change: ProfileUpdate = {
    ...(username.trim().toLowerCase() !== (me.username ?? "") ? { username: username.trim() } : {}),
    ...(name.trim() !== me.name ? { name: name.trim() } : {}),
    ...(highlights.trim() !== settings.highlights ? { highlights: highlights.trim() } : {}),
    ...(showNsfw !== settings.show_nsfw ? { show_nsfw: showNsfw } : {}),
    ...(key.trim() ? { openai_api_key: key.trim() } : {}),
    ...(mode !== settings.openai_mode ? { openai_mode: mode } : {}),
  };
  const dirty = Object.keys(change).length > 0;
  const leaving = useRef(false);
  const blocker = useBlocker({
    shouldBlockFn: () => dirty && !leaving.current,
    enableBeforeUnload: () => dirty && !leaving.current,
    withResolver: true,
  });

  const validate = (): Partial<Record<FieldName, string>> => {
    const found: Partial<Record<FieldName, string>> = {};
    if (Array.from(highlights.trim()).length > settings.highlights_max)
      found.highlights = `Highlights should be less than ${settings.highlights_max} characters`;
    if (key.trim().length > LLM_KEY_MAX) found.openai_api_key = "The key should be at most 200 characters";
    return found;
  };

  /** Saves; true when it worked (the unsaved dialog then lets the navigation go on). */
  const save = async (): Promise<boolean> => {
    const found = validate();
    setErrors(found);
    setSaved(false);
    if (Object.keys(found).length > 0) return false;
    if (!dirty) return true;
    setSaving(true);
    try {
      const body = {
        ...change,
        ...(change.show_nsfw && !adultConfirmed ? { confirm_adult: true as const } : {}),
      };
      await call(accountEndpoints.updateProfile, { body });
      setKey("");
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: meQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: profileSettingsQuery.queryKey }),
      ]);
      setSaved(true);
      return true;
    } catch (caught) {
      const issue = isApiRequestError(caught) ? caught.issues?.[0] : undefined;
      const field = issue?.path as FieldName | undefined;
      if (field && ["username", "name", "highlights", "openai_api_key"].includes(field))
        setErrors({ [field]: issue?.message });
      else setErrors({ form: errorMessage(caught) });
      return false;
    } finally {
      setSaving(false);
    }
  };

  /** Removes the saved key at once (nothing to type, so nothing for Update to carry). */
  const removeKey = async () => {
    setRemovingKey(true);
    setErrors({});
    try {
      await call(accountEndpoints.updateProfile, { body: { openai_api_key: null } });
      await queryClient.invalidateQueries({ queryKey: profileSettingsQuery.queryKey });
    } catch (caught) {
      setErrors({ openai_api_key: errorMessage(caught) });
    } finally {
      setRemovingKey(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };

  const toggleNsfw = (on: boolean) => {
    // The 18+ question is asked once; the server records the answer with the first save.
    if (on && !adultConfirmed) setAskAdult(true);
    else setShowNsfw(on);
  };

  const benefits = benefitsOf(me.permissions);
  const wide = settings.layout === "v1";
  return (
    <form onSubmit={submit} noValidate className={cn("flex flex-col gap-8", wide ? "max-w-3xl" : "max-w-md")}>
      <section aria-labelledby="profile-heading" className={cn("grid gap-4", wide && "sm:grid-cols-2")}>
        <h2 id="profile-heading" className="text-lg font-semibold sm:col-span-2">
          Profile
        </h2>
        <div className="sm:col-span-2">
          <ProfileAvatar me={me} disabled={me.is_guest} />
        </div>
        <Field id="profile-username" label="Username" error={errors.username}>
          <Input
            {...fieldControlProps("profile-username", errors.username)}
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </Field>
        <Field id="profile-name" label="Name" error={errors.name}>
          <Input
            {...fieldControlProps("profile-name", errors.name)}
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field
          id="profile-highlights"
          label="Highlights"
          error={errors.highlights}
          hint={`${Array.from(highlights).length} / ${settings.highlights_max}`}
          className="sm:col-span-2"
        >
          <textarea
            {...fieldControlProps("profile-highlights", errors.highlights, true)}
            rows={2}
            value={highlights}
            onChange={(e) => setHighlights(e.target.value)}
            className="w-full rounded-lg border border-border-strong bg-surface px-3 py-2 text-base text-fg aria-invalid:border-danger sm:text-sm"
          />
        </Field>
        <label className="flex items-center gap-2 text-sm sm:col-span-2">
          <input
            type="checkbox"
            checked={showNsfw}
            onChange={(e) => toggleNsfw(e.target.checked)}
            className="size-4"
          />
          Show NSFW content
        </label>
      </section>

      <section aria-labelledby="plan-heading" className="flex flex-col gap-2">
        <h2 id="plan-heading" className="text-lg font-semibold">
          Current plan
        </h2>
        {me.status !== "active" ? (
          <p>
            <Badge>Free Tier</Badge>
          </p>
        ) : (
          <p className="font-medium">{me.role === "free" ? "Free" : roleTitle[me.role]}</p>
        )}
        {me.is_guest ? null : (
          <p>
            {/* The portal for anyone who has (or had) a paid plan; the plans for everyone else. */}
            {me.status === "inactive" ? (
              <Link to="/subscribe" className="text-sm text-accent-text underline underline-offset-4">
                See the plans
              </Link>
            ) : (
              <Link to="/portal" className="text-sm text-accent-text underline underline-offset-4">
                Manage Subscription
              </Link>
            )}
          </p>
        )}
        {benefits.length > 1 ? (
          <div className="flex flex-col gap-1">
            <h3 className="text-sm font-medium">Your Benefits</h3>
            <ul className="flex flex-wrap gap-1.5">
              {benefits.map((b) => (
                <li key={b}>
                  <Badge tone="accent">{b}</Badge>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
      </section>

      <section aria-labelledby="advanced-heading" className={cn("grid gap-4", wide && "sm:grid-cols-2")}>
        <h2 id="advanced-heading" className="text-lg font-semibold sm:col-span-2">
          Advanced
        </h2>
        <Field
          id="profile-key"
          label="External language model key"
          error={errors.openai_api_key}
          hint={
            settings.openai_key.has_key
              ? `A key ending in ${settings.openai_key.last4} is saved.`
              : "No key saved."
          }
        >
          <Input
            {...fieldControlProps("profile-key", errors.openai_api_key, true)}
            type="password"
            autoComplete="off"
            maxLength={LLM_KEY_MAX}
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
          {settings.openai_key.has_key ? (
            <Button
              type="button"
              variant="outline"
              size="sm"
              className="self-start"
              loading={removingKey}
              onClick={() => void removeKey()}
            >
              Remove saved key
            </Button>
          ) : null}
        </Field>
        <Field id="profile-mode" label="Mode">
          <Select id="profile-mode" value={mode} onChange={(e) => setMode(e.target.value as LlmMode)}>
            <option value="disabled">Disabled</option>
            <option value="enabled">Enabled</option>
            <option value="hybrid">Hybrid</option>
          </Select>
        </Field>
      </section>

      {errors.form ? (
        <p role="alert" className="text-sm text-danger">
          {errors.form}
        </p>
      ) : null}
      <div aria-live="polite" className="min-h-5 text-sm text-success">
        {saved ? "Profile saved successfully." : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={saving} disabled={!dirty}>
          Update
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            leaving.current = true;
            void signOut();
          }}
        >
          Logout
        </Button>
        <Button type="button" variant="danger" onClick={() => setRemoving(true)}>
          Remove Account
        </Button>
      </div>

      <DeleteAccountDialog open={removing} onOpenChange={setRemoving} />
      <Dialog open={askAdult} onOpenChange={setAskAdult}>
        {askAdult ? (
          <DialogContent title="Are you 18 or older?" description="NSFW content is only for adults.">
            <DialogFooter>
              <Button variant="outline" onClick={() => setAskAdult(false)}>
                No
              </Button>
              <Button
                onClick={() => {
                  setShowNsfw(true);
                  setAskAdult(false);
                }}
              >
                Yes, I am 18 or older
              </Button>
            </DialogFooter>
          </DialogContent>
        ) : null}
      </Dialog>
      <Dialog open={blocker.status === "blocked"} onOpenChange={(open) => !open && blocker.reset?.()}>
        {blocker.status === "blocked" ? (
          <DialogContent title="Unsaved Changes" description="You have changes that are not saved yet.">
            <DialogFooter>
              <Button variant="outline" onClick={() => blocker.proceed()}>
                Discard
              </Button>
              <Button
                onClick={() =>
                  void save().then((ok) => {
                    if (ok) {
                      leaving.current = true;
                      blocker.proceed();
                    } else blocker.reset();
                  })
                }
              >
                Update
              </Button>
            </DialogFooter>
          </DialogContent>
        ) : null}
      </Dialog>
    </form>
  );
}
