import type { AdminAd } from "@hearth/contract";
import { type FormEvent, useId, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { Field, fieldControlProps } from "../../ui/label.tsx";
import { useSaveAd } from "./api.ts";

/** Defines or edits a house ad: its text, image, link, and the bots it is shown beside. */
export function AdForm({ ad, onDone }: { ad: AdminAd | null; onDone: (name: string) => void }) {
  const ids = useId();
  const save = useSaveAd();
  const [name, setName] = useState(ad?.name ?? "");
  const [text, setText] = useState(ad?.text ?? "");
  const [link, setLink] = useState(ad?.link_url ?? "");
  const [image, setImage] = useState(ad?.image_url ?? "");
  const [advertiser, setAdvertiser] = useState(ad?.advertiser ?? "");
  const [tags, setTags] = useState(ad?.tags.join(", ") ?? "");
  const [nsfw, setNsfw] = useState<AdminAd["nsfw"]>(ad?.nsfw ?? "sfw");
  const [active, setActive] = useState(ad?.active ?? true);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = {
      name: name.trim(),
      text: text.trim(),
      link_url: link.trim(),
      image_url: image.trim() || null,
      advertiser: advertiser.trim() || null,
      tags: tags
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean),
      nsfw,
      active,
    };
    try {
      await save.mutateAsync({ id: ad?.id ?? null, body });
      onDone(body.name);
      if (!ad) {
        setName("");
        setText("");
        setLink("");
        setImage("");
        setAdvertiser("");
        setTags("");
      }
    } catch {
      // Shown below from save.error.
    }
  };

  const field = (suffix: string) => `${ids}-${suffix}`;
  return (
    <form
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-4"
      aria-label={ad ? `Edit ${ad.name}` : "New ad"}
    >
      {save.error ? <Banner tone="danger">{errorMessage(save.error)}</Banner> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={field("name")} label="Name (only you see it)">
          <Input
            {...fieldControlProps(field("name"))}
            value={name}
            maxLength={80}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field id={field("advertiser")} label="Advertiser (optional)">
          <Input
            {...fieldControlProps(field("advertiser"))}
            value={advertiser}
            maxLength={60}
            onChange={(e) => setAdvertiser(e.target.value)}
          />
        </Field>
        <Field id={field("text")} label="Text" className="sm:col-span-2">
          <Input
            {...fieldControlProps(field("text"))}
            value={text}
            maxLength={280}
            onChange={(e) => setText(e.target.value)}
          />
        </Field>
        <Field id={field("link")} label="Link (https://…)">
          <Input
            {...fieldControlProps(field("link"))}
            type="url"
            value={link}
            onChange={(e) => setLink(e.target.value)}
          />
        </Field>
        <Field id={field("image")} label="Image address (optional)">
          <Input
            {...fieldControlProps(field("image"))}
            type="url"
            value={image}
            onChange={(e) => setImage(e.target.value)}
          />
        </Field>
        <Field id={field("tags")} label="Bot tags, comma separated (empty: every bot)">
          <Input
            {...fieldControlProps(field("tags"))}
            value={tags}
            onChange={(e) => setTags(e.target.value)}
          />
        </Field>
        <Field id={field("nsfw")} label="Shown beside">
          <Select
            {...fieldControlProps(field("nsfw"))}
            value={nsfw}
            onChange={(e) => setNsfw(e.target.value as AdminAd["nsfw"])}
          >
            <option value="sfw">Bots that are not NSFW</option>
            <option value="nsfw">NSFW bots only</option>
            <option value="any">Any bot</option>
          </Select>
        </Field>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={active}
          onChange={(e) => setActive(e.target.checked)}
          className="size-4"
        />
        Active
      </label>
      <Button type="submit" loading={save.isPending} className="self-start">
        {ad ? "Save ad" : "Add ad"}
      </Button>
    </form>
  );
}
