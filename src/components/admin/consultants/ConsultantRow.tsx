/**
 * One consultant on the Consultants page: their photo or initials, name, role, languages and
 * account, whether they take new meetings (pause and resume) and the hours they keep (change them).
 */
import { useId, useState } from "react";
import type { AdminConsultant, ConsultantChangeAnswer } from "#shared/api/consultants.ts";
import type { OpeningHours } from "#shared/office.ts";
import { fill, ROUTES } from "#shared/routes.ts";
import { AVATAR_TINTS, initials } from "#src/lib/people.ts";
import { showToast } from "#src/stores/toasts.ts";
import { adminRequest } from "../api";
import { useCopy } from "../copy";
import { Badge, BusyButton, Data, ErrorNote, Filled, Icon, iconPaths, useAction } from "../ui";
import { ConsultantHours, HoursList } from "./ConsultantHours";
import type { TeamProfile } from "./profile";

export function ConsultantRow({
  consultant,
  profile,
  index,
  username,
  office,
  onChange,
}: {
  consultant: AdminConsultant;
  /** Their team member; none when the profile was removed from src/data/team.json. */
  profile: TeamProfile | undefined;
  /** Their place in the team: the tint behind their initials, as on the public site. */
  index: number;
  username: string;
  office: OpeningHours[];
  onChange: (next: AdminConsultant) => void;
}) {
  const { copy, f, lang, languageName } = useCopy();
  const c = copy.consultants;
  const headingId = useId();
  const editorId = useId();
  const [editing, setEditing] = useState(false);
  const toggle = useAction();
  const name = consultant.name[lang];
  const languages = new Intl.ListFormat(lang, { type: "conjunction" }).format(consultant.languages.map(languageName));

  const switchActive = () =>
    void toggle.run(async () => {
      const active = !consultant.active;
      await adminRequest<ConsultantChangeAnswer>("PATCH", fill(ROUTES.admin.consultant, { id: consultant.id }), {
        active,
      });
      onChange({ ...consultant, active });
      showToast({
        title: f(active ? c.resumedToast : c.pausedToast, { name }),
        description: active ? c.resumedText : c.pausedText,
        variant: "success",
      });
    }, c.switchError);

  return (
    <li className="grid gap-4 py-5" data-consultant={consultant.id}>
      <div className="flex items-start gap-4">
        {profile?.photo ? (
          <img
            src={profile.photo.src}
            alt=""
            width="56"
            height="56"
            className="size-14 shrink-0 rounded-full object-cover ring-2 ring-brand-50"
          />
        ) : (
          <span
            aria-hidden="true"
            className={`flex size-14 shrink-0 items-center justify-center rounded-full bg-gradient-to-br text-lg font-bold text-white ${AVATAR_TINTS[index % AVATAR_TINTS.length]}`}
          >
            {initials(name)}
          </span>
        )}
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h3 id={headingId} className="text-lg font-bold text-brand-950">
              {consultant.mine ? <Filled text={copy.staffMeetings.you} values={{ name: <Data>{name}</Data> }} /> : name}
            </h3>
            <Badge tone={consultant.active ? "done" : "off"}>{consultant.active ? c.active : c.paused}</Badge>
          </div>
          {profile && <p className="text-sm font-semibold text-teal-700">{profile.role[lang]}</p>}
          <p className="mt-1 text-sm text-muted">{f(c.speaks, { languages })}</p>
          <p className="break-words text-sm text-muted">
            <Filled text={c.account} values={{ username: <Data>{username}</Data> }} />
          </p>
        </div>
      </div>
      <div className="flex flex-wrap items-start gap-2 text-sm">
        <Icon path="M12 7v5l3 2m6-2a9 9 0 1 1-18 0 9 9 0 0 1 18 0z" className="mt-0.5 size-4 text-brand-700" />
        {consultant.hours ? (
          <div data-testid="hours">
            <p className="font-semibold text-ink">{c.ownHours}</p>
            <HoursList hours={consultant.hours} />
          </div>
        ) : (
          <p data-testid="hours" className="font-semibold text-ink">
            {c.officeHours}
          </p>
        )}
      </div>
      <ErrorNote>{toggle.error}</ErrorNote>
      <div className="flex flex-wrap gap-2">
        <BusyButton
          busy={toggle.busy !== null}
          label={consultant.active ? c.pause : c.resume}
          busyLabel={consultant.active ? c.pausing : c.resuming}
          icon={consultant.active ? "M9 6v12M15 6v12" : "M8 5v14l11-7z"}
          describedBy={headingId}
          onClick={switchActive}
        />
        <button
          type="button"
          className="btn btn-secondary"
          aria-expanded={editing}
          aria-controls={editing ? editorId : undefined}
          aria-describedby={headingId}
          onClick={() => setEditing(!editing)}
        >
          <Icon path={editing ? iconPaths.chevronUp : iconPaths.chevronDown} />
          {c.changeHours}
        </button>
      </div>
      {editing && (
        <ConsultantHours
          id={editorId}
          consultant={consultant}
          office={office}
          onSaved={(hours) => {
            onChange({ ...consultant, hours });
            setEditing(false);
          }}
        />
      )}
    </li>
  );
}
