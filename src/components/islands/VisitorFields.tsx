import { inputClass } from "./SlotPicker";

export type VisitorField = "name" | "email" | "phone";
export type VisitorValues = Record<VisitorField, string>;

export interface VisitorFieldsProps {
  labels: Record<VisitorField, string>;
  values: VisitorValues;
  errors: Partial<Record<VisitorField, string>>;
  onChange: (field: VisitorField, value: string) => void;
}

const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

/** The checks made on Confirm (the server checks again): a message for each field that fails. */
export function visitorErrors(values: VisitorValues, messages: Record<VisitorField, string>) {
  const found: Partial<Record<VisitorField, string>> = {};
  if (values.name.trim().length < 2) found.name = messages.name;
  if (!EMAIL_PATTERN.test(values.email.trim())) found.email = messages.email;
  if (values.phone.replace(/\D/g, "").length < 6) found.phone = messages.phone;
  return found;
}

const FIELDS = [
  ["name", "name", "text"],
  ["email", "email", "email"],
  ["phone", "tel", "tel"],
] as const;

/** The booking dialog's name, email and phone fields, each with its message under it. */
export default function VisitorFields({ labels, values, errors, onChange }: VisitorFieldsProps) {
  return FIELDS.map(([field, autoComplete, type]) => (
    <div key={field}>
      <label htmlFor={`bk-${field}`} className="block text-sm font-semibold text-brand-950">
        {labels[field]}
      </label>
      <input
        id={`bk-${field}`}
        name={field === "name" ? "firstName" : field}
        type={type}
        dir={field === "name" ? undefined : "ltr"}
        autoComplete={autoComplete}
        value={values[field]}
        onChange={(e) => onChange(field, e.target.value)}
        aria-invalid={!!errors[field]}
        aria-describedby={errors[field] ? `bk-${field}-error` : undefined}
        className={`${inputClass} ${field === "name" ? "" : "rtl:text-right"}`}
      />
      {errors[field] && (
        <p id={`bk-${field}-error`} className="mt-1.5 text-sm font-medium text-red-700">
          {errors[field]}
        </p>
      )}
    </div>
  ));
}
