import { type ExternalSignup, externalSignup, siteEndpoints } from "@hearth/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { call } from "../lib/client.ts";
import { meQuery } from "../lib/session.ts";
import { Banner } from "../ui/banner.tsx";
import { Button } from "../ui/button.tsx";
import { Input } from "../ui/input.tsx";
import { Field, fieldControlProps } from "../ui/label.tsx";
import { Page, PageHeader } from "../ui/page.tsx";

type Errors = Partial<Record<keyof ExternalSignup, string>>;

/** /external/signup (accounts-billing-admin §2.2 Sign-up pages): name and username, minimum 4 each. */
export default function ExternalSignupScreen() {
  const [fields, setFields] = useState<ExternalSignup>({ name: "", username: "" });
  const [errors, setErrors] = useState<Errors>({});
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: (body: ExternalSignup) => call(siteEndpoints.externalSignup, { body }),
    onSuccess: async (me) => {
      queryClient.setQueryData(meQuery.queryKey, me);
      await navigate({ to: "/" });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = externalSignup.safeParse(fields);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as keyof ExternalSignup;
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(fields);
  };
  const set = (key: keyof ExternalSignup) => (event: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [key]: event.target.value }));

  return (
    <Page width="narrow">
      <PageHeader title="Create your account" description="Pick a name and a username to start chatting." />
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <Field id="external-name" label="Name" error={errors.name}>
          <Input
            {...fieldControlProps("external-name", errors.name)}
            value={fields.name}
            onChange={set("name")}
            autoComplete="name"
          />
        </Field>
        <Field
          id="external-username"
          label="Username"
          error={errors.username}
          hint="At least 4 characters: letters, digits, _ and -."
        >
          <Input
            {...fieldControlProps("external-username", errors.username, true)}
            value={fields.username}
            onChange={set("username")}
            autoComplete="username"
          />
        </Field>
        {create.isError ? (
          <Banner tone="danger" title="Your account could not be created">
            {create.error.message}
          </Banner>
        ) : null}
        <Button type="submit" loading={create.isPending}>
          Create account
        </Button>
      </form>
    </Page>
  );
}
