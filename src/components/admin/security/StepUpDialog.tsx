/**
 * The step-up dialog (one per page that changes what protects an account): when a call needs a
 * fresh proof (security/step-up.ts), it asks in place for the password, a code from the app or a
 * passkey, and the call is sent again once the proof is recorded; the form behind keeps what was
 * typed. A native modal <dialog>: focus stays inside, Escape cancels.
 */
import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { ApiError, NetworkError } from "#src/lib/api-client.ts";
import { apiErrorText } from "../api-errors";
import { useAdminCopy } from "../copy";
import { BusyButton, Field, inputClass } from "../ui";
import { fetchFactors } from "./factors-api";
import { $stepUp, hostStepUp, stepUpWith, stepUpWithPasskey } from "./step-up";

type Way = "password" | "code";

export default function StepUpDialog() {
  const texts = useAdminCopy();
  const question = useStore($stepUp);
  const ref = useRef<HTMLDialogElement>(null);
  const [way, setWay] = useState<Way>("password");
  const [value, setValue] = useState("");
  const [methods, setMethods] = useState({ totp: false, passkey: false });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(hostStepUp, []);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (question && !dialog.open) {
      setWay("password");
      setValue("");
      setError(null);
      dialog.showModal();
      fetchFactors()
        .then((f) => setMethods({ totp: f.totp, passkey: f.passkeys.length > 0 }))
        .catch(() => setMethods({ totp: false, passkey: false }));
    }
    if (!question && dialog.open) dialog.close();
  }, [question]);

  if (!texts) return null;
  const { copy } = texts;
  const c = copy.stepUp;

  // A 403, or a passkey ceremony the browser ended: the proof was not right; anything else, as the panel says it.
  const refused = (failure: unknown, wrong: string) =>
    setError(
      (failure instanceof ApiError && failure.status === 403) ||
        !(failure instanceof ApiError || failure instanceof NetworkError)
        ? wrong
        : apiErrorText(failure, copy.apiErrors, { 429: copy.factors.tooMany }),
    );

  const prove = async (proof: () => Promise<unknown>, wrong: string) => {
    setBusy(true);
    setError(null);
    try {
      await proof();
      question?.answer(true);
    } catch (failure) {
      refused(failure, wrong);
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = way === "password" ? { password: value } : { code: value };
    void prove(() => stepUpWith(body), way === "password" ? c.wrongPassword : c.wrongCode);
  };
  const other: Way = way === "password" ? "code" : "password";

  return (
    <dialog
      ref={ref}
      aria-labelledby="step-up-title"
      onCancel={() => question?.answer(false)}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl bg-white p-0 text-ink shadow-lift backdrop:bg-brand-950/40"
    >
      <form noValidate onSubmit={onSubmit} className="grid gap-4 p-5 sm:p-6">
        <h2 id="step-up-title" className="text-lg font-semibold text-brand-950">
          {c.title}
        </h2>
        <p className="text-sm text-muted">{c.intro}</p>
        <Field label={way === "password" ? c.password : c.code} error={error}>
          {(props) => (
            <input
              {...props}
              key={way}
              type={way === "password" ? "password" : "text"}
              autoComplete={way === "password" ? "current-password" : "one-time-code"}
              inputMode={way === "code" ? "numeric" : undefined}
              value={value}
              onChange={(event) => setValue(event.target.value)}
              className={inputClass}
              dir="ltr"
            />
          )}
        </Field>
        {methods.totp && (
          <button
            type="button"
            onClick={() => {
              setWay(other);
              setValue("");
              setError(null);
            }}
            className="justify-self-start text-sm font-medium text-brand-700 underline underline-offset-2"
          >
            {other === "code" ? c.useCode : c.usePassword}
          </button>
        )}
        <div className="flex flex-wrap gap-2">
          <BusyButton type="submit" primary busy={busy} label={c.submit} busyLabel={c.busy} />
          {methods.passkey && (
            <BusyButton
              busy={false}
              disabled={busy}
              label={c.usePasskey}
              onClick={() => void prove(stepUpWithPasskey, c.passkeyFailed)}
            />
          )}
          <button type="button" onClick={() => question?.answer(false)} className="btn btn-secondary">
            {c.cancel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
