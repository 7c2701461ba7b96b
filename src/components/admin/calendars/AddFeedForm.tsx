/** "Connect a calendar": name, ICS address and (for CalDAV) a user name and password; test first, or add. */
import { useState, type SubmitEvent } from "react";
import type { CalendarFetchAnswer, CalendarFetchResult } from "#shared/api/calendars.ts";
import { ROUTES } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest } from "../api";
import { OwnerEmailField } from "./Owner";
import { fetchSummary } from "./summary";
import { useCopy } from "../copy";
import { BusyButton, ErrorNote, Field, iconPaths, inputClass, SaveBar, useAction } from "../ui";

const EMPTY = { name: "", url: "", username: "", password: "", ownerEmail: "" };

export function AddFeedForm({ onAdded }: { onAdded: () => Promise<void> }) {
  const texts = useCopy();
  const { copy } = texts;
  const c = copy.calendarFeeds;
  const [draft, setDraft] = useState(EMPTY);
  const action = useAction<"test" | "add">();
  const [tested, setTested] = useState<CalendarFetchResult | null>(null);

  const payload = () => ({
    name: draft.name.trim() || c.defaultName,
    url: draft.url.trim(),
    ...(draft.username && { username: draft.username }),
    ...(draft.password && { password: draft.password }),
    ...(draft.ownerEmail.trim() && { ownerEmail: draft.ownerEmail.trim() }),
  });
  const missing = () => {
    if (!draft.url.trim()) return c.addressMissing;
    if (!/^(https?|webcal):\/\/\S+$/i.test(draft.url.trim())) return c.addressScheme;
    return null;
  };
  const send = (
    which: "test" | "add",
    wrong: string | null,
    fallback: string,
    done: (answer: CalendarFetchAnswer) => Promise<void> | void,
  ) => {
    setTested(null);
    if (wrong) return action.setError(wrong);
    const route = which === "test" ? ROUTES.admin.calendarTest : ROUTES.admin.calendars;
    void action.run(
      async () => done(await adminRequest<CalendarFetchAnswer>("POST", route, payload())),
      fallback,
      which,
    );
  };
  const test = () => send("test", missing(), c.testError, (answer) => setTested(answer.data));
  const add = (event: SubmitEvent) => {
    event.preventDefault();
    send("add", missing() ?? (draft.name.trim() ? null : c.nameMissing), c.addError, async (answer) => {
      await onAdded();
      setDraft(EMPTY);
      const variant = answer.data.ok ? "success" : "destructive";
      showToast({ title: c.connected, description: fetchSummary(texts, answer.data), variant });
    });
  };
  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));

  return (
    <form onSubmit={add} aria-labelledby="add-calendar-title" className="mt-6 border-t border-line pt-5" noValidate>
      <h3 id="add-calendar-title" className="font-semibold text-ink">
        {c.addTitle}
      </h3>
      <p className="mt-1 text-sm text-muted">{c.addIntro}</p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field label={c.name}>
          {(p) => (
            <input
              {...p}
              type="text"
              value={draft.name}
              maxLength={80}
              onChange={set("name")}
              className={inputClass}
              placeholder={c.namePlaceholder}
              required
            />
          )}
        </Field>
        <Field label={c.address}>
          {(p) => (
            <input
              {...p}
              type="url"
              dir="ltr"
              value={draft.url}
              maxLength={2000}
              onChange={set("url")}
              className={inputClass}
              placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"
              autoComplete="off"
              spellCheck={false}
              required
            />
          )}
        </Field>
        <Field label={c.username} note={c.usernameNote}>
          {(p) => (
            <input
              {...p}
              type="text"
              dir="ltr"
              value={draft.username}
              maxLength={200}
              onChange={set("username")}
              className={inputClass}
              autoComplete="off"
            />
          )}
        </Field>
        <Field label={c.password} note={copy.common.optional}>
          {(p) => (
            <input
              {...p}
              type="password"
              dir="ltr"
              value={draft.password}
              maxLength={500}
              onChange={set("password")}
              className={inputClass}
              autoComplete="new-password"
            />
          )}
        </Field>
        <OwnerEmailField
          value={draft.ownerEmail}
          onChange={(ownerEmail) => setDraft((d) => ({ ...d, ownerEmail }))}
          className={inputClass}
        />
      </div>
      <p role="status" className="mt-4 text-sm empty:hidden" data-testid="calendar-test-result">
        {tested && (
          <span className={tested.ok ? "font-medium text-green-800" : "font-medium text-red-800"}>
            {fetchSummary(texts, tested)}
          </span>
        )}
      </p>
      <ErrorNote className="mt-4">{action.error}</ErrorNote>
      <SaveBar>
        <BusyButton
          busy={action.busy === "test"}
          disabled={action.busy !== null}
          label={c.test}
          busyLabel={c.testing}
          icon={iconPaths.check}
          onClick={test}
        />
        <BusyButton
          type="submit"
          primary
          busy={action.busy === "add"}
          disabled={action.busy !== null}
          label={c.add}
          busyLabel={c.adding}
          icon={iconPaths.plus}
        />
      </SaveBar>
    </form>
  );
}
