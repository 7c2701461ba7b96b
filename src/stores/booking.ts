/** Whether the meeting booking dialog is open; any island may open it. */
import { atom } from "nanostores";

export const $bookingOpen = atom(false);

export const openBooking = () => $bookingOpen.set(true);
export const closeBooking = () => $bookingOpen.set(false);
