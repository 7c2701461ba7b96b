/** "Meetings in your calendar": the private address of the meetings feed the team subscribes to. */
import { useState } from "react";
import type { MeetingsFeedAnswer } from "#shared/api/calendars.ts";
import { ROUTES } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest } from "../api";
import { useCopy } from "../copy";
import {
  BusyButton,
  ConfirmAction,
  ErrorNote,
  Field,
  Icon,
  iconPaths,
  inputClass,
  Loading,
  problem,
  Section,
  useResource,
} from "../ui";

const loadFeed = () => adminRequest<MeetingsFeedAnswer>("GET", ROUTES.admin.meetingsFeed).then((a) => a.data.url);

export function MeetingsFeed() {
  const { copy } = useCopy();
  const c = copy.calendarFeeds;
  const feed = useResource<string | null>(loadFeed);
  const url = feed.data;
  const [making, setMaking] = useState(false);

  const make = async () => {
    setMaking(true);
    try {
      const answer = await adminRequest<MeetingsFeedAnswer>("POST", ROUTES.admin.meetingsFeed);
      const replaced = Boolean(url);
      feed.set(answer.data.url);
      showToast({
        title: replaced ? c.madeNew : c.made,
        description: replaced ? c.madeNewText : c.madeText,
        variant: "success",
      });
      return true;
    } catch (e) {
      showToast({ title: copy.common.failed, description: problem(e, copy.common.tryAgain), variant: "destructive" });
      return false;
    } finally {
      setMaking(false);
    }
  };

  const copyAddress = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      showToast({ title: c.copied, description: c.copiedText, variant: "success" });
    } catch {
      showToast({ title: c.copyFailed, description: c.copyFailedText, variant: "destructive" });
    }
  };

  return (
    <Section title={c.feedTitle} intro={c.feedIntro} data-testid="meetings-feed">
      {feed.failed ? (
        <ErrorNote className="mt-5">{c.feedLoadError}</ErrorNote>
      ) : url === undefined ? (
        <Loading>{copy.common.loading}</Loading>
      ) : url ? (
        <div className="mt-5 grid gap-3">
          <Field label={c.feedAddress}>
            {(p) => (
              <input
                {...p}
                type="text"
                dir="ltr"
                readOnly
                value={url}
                onFocus={(e) => e.target.select()}
                className={`${inputClass} font-mono text-sm`}
                data-testid="meetings-feed-url"
              />
            )}
          </Field>
          <div className="flex flex-wrap gap-2">
            <button type="button" onClick={() => void copyAddress()} className="btn btn-secondary">
              <Icon path={iconPaths.download} />
              {c.copy}
            </button>
            <ConfirmAction
              label={c.makeNew}
              question={c.makeQuestion}
              confirmLabel={c.makeNew}
              busyLabel={c.making}
              icon={iconPaths.shield}
              onConfirm={make}
            />
          </div>
        </div>
      ) : (
        <div className="mt-5">
          <BusyButton primary busy={making} label={c.create} icon={iconPaths.calendar} onClick={() => void make()} />
        </div>
      )}
    </Section>
  );
}
