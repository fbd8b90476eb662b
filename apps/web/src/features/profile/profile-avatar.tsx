import { accountEndpoints, type Me } from "@hearth/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { call } from "../../lib/client.ts";
import { meQuery } from "../../lib/session.ts";
import { uploadTo } from "../../lib/upload.ts";
import { AvatarField } from "../characters/avatar-field.tsx";

/**
 * The profile's avatar (accounts-billing-admin §2.2): uploaded or removed at once, like a saved
 * persona's, so it is no part of Update's unsaved changes. The answer is the new /api/me, which
 * the top bar's account menu shows straight away.
 */
export function ProfileAvatar({ me, disabled }: { me: Me; disabled?: boolean }) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const changed = (next: Me) => queryClient.setQueryData(meQuery.queryKey, next);

  const pick = async (file: File) => {
    setError(null);
    setProgress(0);
    try {
      changed(
        await uploadTo(accountEndpoints.setAvatar, undefined, file, (p) =>
          setProgress(p.fraction ?? Number.NaN),
        ),
      );
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setProgress(null);
    }
  };

  const remove = async () => {
    setError(null);
    try {
      changed(await call(accountEndpoints.removeAvatar, {}));
    } catch (caught) {
      setError(errorMessage(caught));
    }
  };

  return (
    <AvatarField
      name={me.name}
      src={me.avatar_url}
      progress={progress}
      error={error}
      disabled={disabled}
      onPick={(file) => void pick(file)}
      onRemove={() => void remove()}
    />
  );
}
