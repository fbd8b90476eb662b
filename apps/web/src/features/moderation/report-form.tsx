import {
  REPORT_DETAILS_MAX,
  REPORT_ID_MAX,
  reportIssueTypes,
  reportMessages,
  reportResolutions,
} from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { CircleCheck } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/api.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { Input, Select } from "../../ui/input.tsx";
import { characterQuery } from "../characters/api.ts";
import { CountedField, describedBy, TextArea } from "../characters/form-controls.tsx";
import { reportCharacter } from "./api.ts";

/** How long the success message stays (accounts-billing-admin §4, §9). */
const SUCCESS_MS = 3000;

type Field = "character_id" | "userIssueType" | "userReportDetails" | "userExpectedResolution";
type Errors = Partial<Record<Field, string>>;

/** The §5 rules, checked before sending (the contract checks them again on the server). */
function validate(values: Record<Field, string>): Errors {
  const errors: Errors = {};
  const id = values.character_id.trim();
  if (!id || id.length > REPORT_ID_MAX) errors.character_id = reportMessages.id;
  if (!values.userIssueType) errors.userIssueType = reportMessages.issue;
  const details = values.userReportDetails.trim();
  if (!details) errors.userReportDetails = reportMessages.details;
  else if (details.length > REPORT_DETAILS_MAX)
    errors.userReportDetails = `At most ${REPORT_DETAILS_MAX} characters`;
  if (!values.userExpectedResolution) errors.userExpectedResolution = reportMessages.resolution;
  return errors;
}

/** Which bot the id names, when it is one the member can see (GET characters/{id}, §7). */
function ReportedBot({ id }: { id: string }) {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
  const bot = useQuery({ ...characterQuery(id), enabled: uuid, retry: false });
  if (!uuid || bot.isPending) return null;
  return bot.data ? (
    <p className="text-sm text-muted">
      Reporting <span className="font-medium text-fg">{bot.data.name}</span>
      {bot.data.creator_username ? ` by @${bot.data.creator_username}` : ""}
    </p>
  ) : (
    <p className="text-sm text-warning">No chatbot you can see has this id.</p>
  );
}

/**
 * The Report-a-chatbot form (accounts-billing-admin §2.2, §5): every field required, 'Fill all
 * fields to submit.' when one is missing, a 3-second success message, and no second submit.
 */
export function ReportForm({ characterId }: { characterId?: string }) {
  const [values, setValues] = useState<Record<Field, string>>({
    character_id: characterId ?? "",
    userIssueType: "",
    userReportDetails: "",
    userExpectedResolution: "",
  });
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [showSuccess, setShowSuccess] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!showSuccess) return;
    const timer = setTimeout(() => setShowSuccess(false), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [showSuccess]);

  const set = (field: Field) => (value: string) => {
    setValues((now) => ({ ...now, [field]: value }));
    if (errors[field]) setErrors((now) => ({ ...now, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitted || sending) return;
    const found = validate(values);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length) {
      const first = (Object.keys(found) as Field[])[0];
      form.current?.querySelector<HTMLElement>(`#report-${first}`)?.focus();
      return;
    }
    setSending(true);
    try {
      await reportCharacter({
        character_id: values.character_id.trim(),
        userIssueType: values.userIssueType as (typeof reportIssueTypes)[number],
        userReportDetails: values.userReportDetails.trim(),
        userExpectedResolution: values.userExpectedResolution as (typeof reportResolutions)[number],
      });
      setSubmitted(true);
      setShowSuccess(true);
    } catch (caught) {
      setFailure(errorMessage(caught));
    } finally {
      setSending(false);
    }
  };

  const incomplete = Object.values(errors).some(Boolean);
  const locked = submitted || sending;
  const id = values.character_id.trim();

  return (
    <form
      ref={form}
      noValidate
      onSubmit={submit}
      aria-label="Report a chatbot"
      className="flex flex-col gap-5"
    >
      <p className="text-sm text-muted">{reportMessages.promise}</p>

      <CountedField id="report-character_id" label="Chatbot id" error={errors.character_id}>
        <Input
          {...describedBy("report-character_id", { error: errors.character_id })}
          value={values.character_id}
          maxLength={REPORT_ID_MAX}
          autoComplete="off"
          disabled={locked}
          onChange={(e) => set("character_id")(e.target.value)}
        />
      </CountedField>
      {id ? <ReportedBot key={id} id={id} /> : null}

      <CountedField id="report-userIssueType" label="What is wrong" error={errors.userIssueType}>
        <Select
          {...describedBy("report-userIssueType", { error: errors.userIssueType })}
          value={values.userIssueType}
          disabled={locked}
          onChange={(e) => set("userIssueType")(e.target.value)}
        >
          <option value="">Choose an issue</option>
          {reportIssueTypes.map((issue) => (
            <option key={issue} value={issue}>
              {issue}
            </option>
          ))}
        </Select>
      </CountedField>

      <CountedField
        id="report-userReportDetails"
        label="Details"
        length={values.userReportDetails.length}
        max={REPORT_DETAILS_MAX}
        error={errors.userReportDetails}
      >
        <TextArea
          {...describedBy("report-userReportDetails", { error: errors.userReportDetails, count: true })}
          value={values.userReportDetails}
          disabled={locked}
          placeholder="What did you see, and where?"
          onChange={(e) => set("userReportDetails")(e.target.value)}
        />
      </CountedField>

      <CountedField
        id="report-userExpectedResolution"
        label="What should we do"
        error={errors.userExpectedResolution}
      >
        <Select
          {...describedBy("report-userExpectedResolution", { error: errors.userExpectedResolution })}
          value={values.userExpectedResolution}
          disabled={locked}
          onChange={(e) => set("userExpectedResolution")(e.target.value)}
        >
          <option value="">Choose a resolution</option>
          {reportResolutions.map((resolution) => (
            <option key={resolution} value={resolution}>
              {resolution}
            </option>
          ))}
        </Select>
      </CountedField>

      {incomplete ? <Banner tone="danger">{reportMessages.incomplete}</Banner> : null}
      {failure ? (
        <Banner tone="danger" title="Your report wasn't sent">
          {failure}
        </Banner>
      ) : null}
      <div aria-live="polite">
        {showSuccess ? (
          <Banner tone="success" title="Report sent">
            {reportMessages.success}
          </Banner>
        ) : null}
      </div>

      <div className="flex items-center gap-3">
        <Button type="submit" size="lg" loading={sending} disabled={submitted}>
          {submitted ? (
            <>
              <CircleCheck aria-hidden />
              Submitted
            </>
          ) : (
            "Submit report"
          )}
        </Button>
      </div>
    </form>
  );
}
