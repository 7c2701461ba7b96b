/** The Meetings list's search and filters: consultant (the signed-in one's own by default), when, status, language. */
import { useStore } from "@nanostores/react";
import { ALL_CONSULTANTS, type MeetingFilters } from "#shared/admin-lists.ts";
import { $consultants } from "./consultants/store";
import { useCopy } from "./copy";
import { ListFilters, useSharedMenus, type BarProps } from "./ListFilters";

export function MeetingFiltersBar(bar: BarProps<MeetingFilters>) {
  const { c, any, status, language } = useSharedMenus();
  const { copy, f, lang } = useCopy();
  const s = copy.staffMeetings;
  const when = [any(c.anyTime), { value: "upcoming", label: c.upcoming }, { value: "past", label: c.past }];
  const consultants = [
    { value: ALL_CONSULTANTS, label: s.allConsultants },
    ...(useStore($consultants) ?? []).map((x) => ({
      value: x.id,
      label: x.mine ? f(s.you, { name: x.name[lang] }) : x.name[lang],
    })),
  ];
  return (
    <ListFilters
      {...bar}
      label={c.findMeetings}
      searchHint={c.meetingsHint}
      menus={[
        { key: "consultant", label: s.consultant, options: consultants },
        { key: "when", label: c.when, options: when },
        status,
        language,
      ]}
      datesLabel={c.meeting}
      sortOptions={[
        any(c.newestRequest),
        { value: "oldest", label: c.oldestRequest },
        { value: "soonest", label: c.soonest },
        { value: "latest", label: c.latest },
      ]}
    />
  );
}
