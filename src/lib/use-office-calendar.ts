import { useCallback, useRef, useState } from "react";
import type { CalendarAnswer, OfficeCalendar, SlotsAnswer } from "#shared/api/availability.ts";
import { calendarDayOpen } from "#shared/booking.ts";
import { addDays, zonedInstant } from "#shared/dates.ts";
import { LANGUAGE_INFO, type Language } from "#shared/languages.ts";
import { ROUTES, withQuery } from "#shared/routes.ts";
import { showToast } from "#src/stores/toasts.ts";
import { apiRequest } from "./api-client.ts";

/** How many open days ahead the picker looks for the first free slot before it shows "no slots". */
export const FIRST_FREE_DAY_SEARCH = 10;

/** The toast shown when the calendar or a day's slots cannot be loaded. */
export interface SlotsFailureLabels {
  slotsErrorTitle: string;
  slotsError: string;
}

/** Whether the office takes meetings on `day` at all: one of its weekdays and not a closed date. */
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

async function fetchSlots(day: string, headers?: Record<string, string>): Promise<string[]> {
  const result = await apiRequest<SlotsAnswer>("GET", withQuery(ROUTES.meetings.availableSlots, { date: day }), {
    headers,
  });
  if (!result?.success || !Array.isArray(result.data)) throw new Error("unsuccessful");
  return result.data;
}

export type OfficeCalendarState = ReturnType<typeof useOfficeCalendar>;

/**
 * The date and time choice of the booking dialog and the manage page: the office calendar (loaded
 * once, by `start`), the chosen day and its free slots, the chosen time. A failed load of the
 * calendar or of a day's slots shows one toast and leaves an empty list, wherever the picker is.
 * `slotHeaders` go with every slots request: the manage page sends its link's token, so that the
 * meeting's own time and buffers do not hide the slots next to it.
 */
export function useOfficeCalendar(failure: SlotsFailureLabels, initialTime = "", slotHeaders?: Record<string, string>) {
  const [calendar, setCalendar] = useState<OfficeCalendar | null>(null);
  const [date, setDate] = useState("");
  const [time, setTime] = useState(initialTime);
  const [slots, setSlots] = useState<string[]>([]);
  const [loadingSlots, setLoadingSlots] = useState(true);
  const starting = useRef(false);

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
      setLoadingSlots(true);
      try {
        showSlots(await fetchSlots(day, slotHeaders), preferFirst);
      } catch {
        failed();
      } finally {
        setLoadingSlots(false);
      }
    },
    [showSlots, failed, slotHeaders],
  );

  /**
   * Loads the office calendar (once; a call while it loads or after it loaded does nothing) and
   * shows a first day: `pick(calendar)` when given, else the first open day with a free slot within
   * FIRST_FREE_DAY_SEARCH open days, so the picker never opens on "no slots" when a later day has
   * some. Resolves to false when the calendar could not be loaded (the toast is shown).
   */
  const start = useCallback(
    async (pick?: (rules: OfficeCalendar) => string): Promise<boolean> => {
      if (starting.current) return true;
      starting.current = true;
      let rules: OfficeCalendar;
      try {
        rules = (await apiRequest<CalendarAnswer>("GET", ROUTES.meetings.calendar)).data;
      } catch {
        starting.current = false;
        setLoadingSlots(false);
        failed();
        return false;
      }
      setCalendar(rules);
      if (pick) {
        const day = pick(rules);
        setDate(day);
        await loadSlots(day, true);
        return true;
      }
      let first = "";
      try {
        for (let day = rules.today, tried = 0; day <= rules.lastDate && tried < FIRST_FREE_DAY_SEARCH;) {
          if (calendarDayOpen(day, rules)) {
            first ||= day;
            tried++;
            const free = await fetchSlots(day, slotHeaders);
            if (free.length) {
              setDate(day);
              showSlots(free);
              return true;
            }
          }
          day = addDays(day, 1);
        }
        setDate(first || rules.today);
        showSlots([]);
      } catch {
        setDate(first || rules.today);
        failed();
      } finally {
        setLoadingSlots(false);
      }
      return true;
    },
    [loadSlots, showSlots, failed, slotHeaders],
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

  return { calendar, date, time, setTime, slots, loadingSlots, isOpenDay, start, choose, loadSlots };
}
