/** Team members; roles and bios live in the locale files under team.members.<index>. */
export const team = [
  { index: 1, name: "Nasrin Farahani", initials: "NF" },
  { index: 2, name: "Pieter van Dijk", initials: "PD" },
  { index: 3, name: "Kaveh Tehrani", initials: "KT" },
] as const;
