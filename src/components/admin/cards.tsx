/** The enquiry and meeting cards of the dashboard (cards/). Every value is rendered as text. */
export { EnquiryCard } from "./cards/EnquiryCard";
export { MeetingCard } from "./cards/MeetingCard";
