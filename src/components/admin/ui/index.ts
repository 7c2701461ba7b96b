/** The admin UI kit: every panel builds its fields, buttons, lists and states from these. */
export { Badge, Data, Filled, Icon, iconPaths, PageSpinner, Spinner } from "./basics";
export { ConfirmAction } from "./ConfirmAction";
export { DateField } from "./DateField";
export { ErrorNote, Field, inputClass, Segmented, Toggle, type ControlProps } from "./fields";
export { BusyButton, EmptyState, Loading, PageTitle, RowList, SaveBar, Section } from "./layout";
export { problem, useAction, useResource } from "./hooks";
export { MailText } from "./MailText";
