import { useCallback, useRef, useState } from "react";
import type { CalendarAnswer, OfficeCalendar, SlotsAnswer } from "#shared/api/availability.ts";
import { calendarDayOpen } from "#shared/booking.ts";
import { addDays, zonedInstant } from "#shared/dates.ts";
import { LANGUAGE_INFO, type Language } from "#shared/languages.ts";
import { ROUTES, withQuery } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { apiRequest } from "./api-client.ts";
import type { BookableConsultant } from "./consultant-choice.ts";

/** How many open days ahead the picker looks for the first free slot before it shows "no slots". */
export const FIRST_FREE_DAY_SEARCH = 10;

/** The toast shown when the calendar or a day's slots cannot be loaded. */
export interface SlotsFailureLabels {
  slotsErrorTitle: string;
  slotsError: string;
}

/** The visitor's own wall-clock time for an office time, e.g. 09:00 in Amsterdam → "Mon 11:30" in Tehran; null in the office's zone. */
export function visitorTime(lang: Language, date: string, time: string, officeZone: string): string | null {
  const visitorZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (!time || !date || visitorZone === officeZone) return null;
  return new Intl.DateTimeFormat(LANGUAGE_INFO[lang].intl, {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    weekday: "short",
  }).format(zonedInstant(date, time, officeZone));
}

async function fetchSlots(
  day: string,
  headers?: Record<string, string>,
  query: Record<string, string> = {},
): Promise<string[]> {
  const result = await apiRequest<SlotsAnswer>(
    "GET",
    withQuery(ROUTES.meetings.availableSlots, { date: day, ...query }),
    { headers },
  );
  if (!result?.success || !Array.isArray(result.data)) throw new Error("unsuccessful");
  return result.data;
}

const fetchCalendar = async (query: Record<string, string>) =>
  (await apiRequest<CalendarAnswer>("GET", withQuery(ROUTES.meetings.calendar, query))).data;

export type OfficeCalendarState = ReturnType<typeof useOfficeCalendar>;

/** The calendar answer, with the consultants a server that knows them lists (src/lib/consultant-choice.ts). */
export type PickerCalendar = OfficeCalendar & { consultants?: BookableConsultant[] };

/**
 * The date and time choice of the booking dialog and the manage page: the office calendar (loaded
 * once, by `start`), the chosen day and its free slots, the chosen time. A failed load of the
 * calendar or of a day's slots shows one toast and leaves an empty list, wherever the picker is.
 * `slotHeaders` go with every slots request: the manage page sends its link's token, so that the
 * meeting's own time and buffers do not hide the slots next to it. `query` goes with the calendar
 * and slots requests (the booking dialog's consultant and language); `requery` changes it. Only
 * the answer to the latest request is shown, so quick changes never leave an older day's slots.
 */
export function useOfficeCalendar(
  failure: SlotsFailureLabels,
  initialTime = "",
  slotHeaders?: Record<string, string>,
  initialQuery: Record<string, string> = {},
) {
  const [calendar, setCalendar] = useState<PickerCalendar | null>(null);
  const [date, setDate] = useState("");
  const [time, setTime] = useState(initialTime);
  const [slots, setSlots] = useState<string[]>([]);
  const [loadingSlots, setLoadingSlots] = useState(true);
  const starting = useRef(false);
  const query = useRef(initialQuery);
  const latest = useRef(0);

  const failed = useCallback(() => {
    setSlots([]);
    showToast({ title: failure.slotsErrorTitle, description: failure.slotsError, variant: "destructive" });
  }, [failure.slotsErrorTitle, failure.slotsError]);

  /** Shows a day's slots; keeps the chosen time when it is still offered, else takes the first. */
  const showSlots = useCallback((list: string[], preferFirst = false) => {
    setSlots(list);
    setTime((current) => (list.length && (preferFirst || !list.includes(current)) ? list[0] : current));
  }, []);

  const loadSlots = useCallback(
    async (day: string, preferFirst = false) => {
      const ask = ++latest.current;
      setLoadingSlots(true);
      try {
        const list = await fetchSlots(day, slotHeaders, query.current);
        if (ask === latest.current) showSlots(list, preferFirst);
      } catch {
        if (ask === latest.current) failed();
      } finally {
        if (ask === latest.current) setLoadingSlots(false);
      }
    },
    [showSlots, failed, slotHeaders],
  );

  /**
   * Shows the first open day from `from` with a free slot within FIRST_FREE_DAY_SEARCH open days,
   * so the picker never opens on "no slots" when a later day has some.
   */
  const showFirstFree = useCallback(
    async (rules: OfficeCalendar, from: string) => {
      const ask = ++latest.current;
      setLoadingSlots(true);
      let first = "";
      try {
        for (let day = from, tried = 0; day <= rules.lastDate && tried < FIRST_FREE_DAY_SEARCH;) {
          if (calendarDayOpen(day, rules)) {
            first ||= day;
            tried++;
            const free = await fetchSlots(day, slotHeaders, query.current);
            if (ask !== latest.current) return;
            if (free.length) {
              setDate(day);
              showSlots(free);
              return;
            }
          }
          day = addDays(day, 1);
        }
        setDate(first || from);
        showSlots([]);
      } catch {
        if (ask !== latest.current) return;
        setDate(first || from);
        failed();
      } finally {
        if (ask === latest.current) setLoadingSlots(false);
      }
    },
    [showSlots, failed, slotHeaders],
  );

  /**
   * Loads the office calendar (once; a call while it loads or after it loaded does nothing) and
   * shows a first day: `pick(calendar)` when given, else the first day with a free slot. Resolves
   * to false when the calendar could not be loaded (the toast is shown).
   */
  const start = useCallback(
    async (pick?: (rules: OfficeCalendar) => string): Promise<boolean> => {
      if (starting.current) return true;
      starting.current = true;
      let rules: PickerCalendar;
      try {
        rules = await fetchCalendar(query.current);
      } catch {
        starting.current = false;
        setLoadingSlots(false);
        failed();
        return false;
      }
      setCalendar(rules);
      if (!pick) {
        await showFirstFree(rules, rules.today);
        return true;
      }
      const day = pick(rules);
      setDate(day);
      await loadSlots(day, true);
      return true;
    },
    [loadSlots, showFirstFree, failed],
  );

  /**
   * Another consultant (or language): their calendar and the chosen day's slots, or, when that day
   * is not open for them, their first day with a free slot. Before `start` it only sets the query.
   */
  const requery = useCallback(
    async (next: Record<string, string>) => {
      query.current = next;
      if (!starting.current || !calendar) return;
      const ask = ++latest.current;
      setLoadingSlots(true);
      let rules: PickerCalendar;
      try {
        rules = await fetchCalendar(next);
      } catch {
        if (ask === latest.current) {
          setLoadingSlots(false);
          failed();
        }
        return;
      }
      if (ask !== latest.current) return;
      setCalendar(rules);
      if (date && calendarDayOpen(date, rules)) await loadSlots(date);
      else await showFirstFree(rules, rules.today);
    },
    [calendar, date, loadSlots, showFirstFree, failed],
  );

  const isOpenDay = useCallback((day: string) => !!calendar && calendarDayOpen(day, calendar), [calendar]);

  /** The visitor chose another day: its slots load. */
  const choose = useCallback(
    (day: string) => {
      if (day === date) return;
      setDate(day);
      void loadSlots(day);
    },
    [date, loadSlots],
  );

  return { calendar, date, time, setTime, slots, loadingSlots, isOpenDay, start, choose, loadSlots, requery };
}
