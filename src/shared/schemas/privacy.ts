/** Payload of the admin's privacy tools (export, erase): one email address. */
import * as z from "zod/mini";
import { email } from "./fields.ts";

/** The privacy tools of the admin (export, erase): one email address. */
export const personalDataRequestSchema = z.strictObject({ email });
