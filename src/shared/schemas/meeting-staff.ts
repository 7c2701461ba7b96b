/**
 * Staff changing a meeting for the visitor: handing it to another consultant
 * (POST /api/admin/meetings/{id}/consultant) and moving it (POST /api/admin/meetings/{id}/move).
 * Each names the meeting as the panel showed it (`was`): when another admin changed it meanwhile,
 * the request is refused (409 meetingChanged) instead of silently undoing their change.
 */
import * as z from "zod/mini";
import { CONSULTANT_ID, CONSULTANT_ID_MAX } from "../consultants.ts";
import { MESSAGES, TIME, calendarDate } from "./fields.ts";

const CONSULTANT_MESSAGE = "consultant must be a consultant's id";

/** A consultant's id (never "any": staff name the person). */
export const consultantId = z
  .string({ error: CONSULTANT_MESSAGE })
  .check(z.maxLength(CONSULTANT_ID_MAX, CONSULTANT_MESSAGE), z.regex(CONSULTANT_ID, CONSULTANT_MESSAGE));

const time = () =>
  z.string({ error: MESSAGES.time }).check(z.minLength(1, MESSAGES.time), z.regex(TIME, MESSAGES.time));

/** The meeting as the admin saw it: its time and consultant. */
export const meetingStateSchema = z.strictObject({ date: calendarDate(), time: time(), consultant: consultantId });
export type MeetingState = z.output<typeof meetingStateSchema>;

export const meetingHandOverSchema = z.strictObject({ consultant: consultantId, was: meetingStateSchema });
export type MeetingHandOver = z.output<typeof meetingHandOverSchema>;

export const staffMoveSchema = z.strictObject({ date: calendarDate(), time: time(), was: meetingStateSchema });
export type StaffMove = z.output<typeof staffMoveSchema>;
