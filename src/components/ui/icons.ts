/**
 * Inline stroke icons (24×24, drawn for this site). Icons that point a direction are listed in
 * `directional` and are mirrored in right-to-left pages. The trend line is not: charts run left to
 * right in Persian too (as the hero illustration's chart does), so a rising line stays rising to the right.
 */
export const icons = {
  arrow: "M5 12h14M13 6l6 6-6 6",
  chevronDown: "M6 9l6 6 6-6",
  chevronLeft: "M15 6l-6 6 6 6",
  chevronRight: "M9 6l6 6-6 6",
  menu: "M4 7h16M4 12h16M4 17h16",
  close: "M6 6l12 12M18 6L6 18",
  check: "M5 12.5l4.5 4.5L19 7.5",
  globe:
    "M12 3a9 9 0 100 18 9 9 0 000-18zM3.5 9h17M3.5 15h17M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z",
  mail: "M4 6h16v12H4zM4 7l8 6 8-6",
  phone:
    "M6.6 3.5l2.6.4 1.3 4-1.9 1.3a12 12 0 006.2 6.2l1.3-1.9 4 1.3.4 2.6a2 2 0 01-2 2.1A16.5 16.5 0 014.5 5.5a2 2 0 012.1-2z",
  pin: "M12 21s7-6.1 7-11.5A7 7 0 005 9.5C5 14.9 12 21 12 21zM12 12a2.5 2.5 0 100-5 2.5 2.5 0 000 5z",
  chat: "M4 20l1.4-4.2A8 8 0 1112 20a8.4 8.4 0 01-3.6-.8L4 20zM9 10.5h.01M12 10.5h.01M15 10.5h.01",
  calendar: "M4 6h16v14H4zM4 10h16M8 3v4M16 3v4",
  linkedin: "M4 4h16v16H4zM8 10v6M8 7.5v.01M12 16v-6M12 12.5c0-1.5 1-2.5 2.3-2.5S16 11 16 12.5V16",
  passport: "M6 3h11a1 1 0 011 1v16a1 1 0 01-1 1H6zM12 8a3 3 0 100 6 3 3 0 000-6zM9 17h6",
  rocket: "M12 3c3 2 4.5 5 4.5 9l-2 4h-5l-2-4C7.5 8 9 5 12 3zM12 9.5v.01M9.5 16l-2.5 3 3.5-.5M14.5 16l2.5 3-3.5-.5",
  lightbulb: "M9 18h6M10 21h4M12 3a6 6 0 00-3.5 10.9c.6.5 1 1.2 1 2V16h5v-.1c0-.8.4-1.5 1-2A6 6 0 0012 3z",
  compass: "M12 3a9 9 0 100 18 9 9 0 000-18zM15.5 8.5l-2 5-5 2 2-5 5-2z",
  network: "M12 5a2 2 0 100 .01M5 18a2 2 0 100 .01M19 18a2 2 0 100 .01M12 7v4M12 11l-6 5.5M12 11l6 5.5",
  layers: "M12 3l9 5-9 5-9-5 9-5zM3 13l9 5 9-5",
  shield: "M12 3l8 3v6c0 4.5-3.4 8.2-8 9-4.6-.8-8-4.5-8-9V6l8-3zM8.5 12l2.5 2.5 4.5-4.5",
  chart: "M4 20V10M10 20V4M16 20v-7M22 20H2",
  coins:
    "M9 8a6 3 0 1012 0 6 3 0 10-12 0zM3 12c0 1.7 2.7 3 6 3M3 12V8c0-1.7 2.7-3 6-3M3 16c0 1.7 2.7 3 6 3 1.2 0 2.4-.2 3.3-.5M21 8v8c0 1.7-2.7 3-6 3s-6-1.3-6-3V8",
  scale: "M12 4v16M7 20h10M5 8h14M5 8l-3 6a3 3 0 006 0L5 8zM19 8l-3 6a3 3 0 006 0l-3-6zM12 4l-1 0",
  users:
    "M9 11a4 4 0 100-8 4 4 0 000 8zM2 21c0-3.9 3.1-7 7-7s7 3.1 7 7M16 3.5a4 4 0 010 7.5M19 14.5c1.8 1.2 3 3.3 3 5.5",
  trending: "M3 17l6-6 4 4 8-8M15 7h6v6",
  languages: "M4 5h8M8 3v2M5.5 5c.8 3 3 5.5 6 7M10.5 5c-.6 3.2-3 6-6.5 7.5M13 21l4-10 4 10M14.5 17.5h5",
  target: "M12 3a9 9 0 100 18 9 9 0 000-18zM12 7a5 5 0 100 10 5 5 0 000-10zM12 11a1 1 0 100 2 1 1 0 000-2z",
  doc: "M7 3h7l4 4v14H7zM14 3v4h4M10 12h5M10 16h5",
  send: "M4 12l16-8-6 16-3-7-7-1z",
  building: "M4 21V5l8-2v18M12 8l8 3v10M7 8h2M7 12h2M7 16h2M15 13h2M15 17h2M2 21h20",
  clock: "M12 3a9 9 0 100 18 9 9 0 000-18zM12 7v5l3 2",
  handshake: "M3 11l4-4 4 2 3-2 7 5-3 3M3 11l5 5c.8.8 2 .8 2.8 0M8 13.5l2.5 2.5M10.5 11l3.5 3.5M14 17l-1.2 1.2",
  sparkle:
    "M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8L12 3zM19 16l.7 2 2 .7-2 .7-.7 2-.7-2-2-.7 2-.7.7-2z",
} as const;

export type IconName = keyof typeof icons;

export const directional: ReadonlySet<IconName> = new Set(["arrow", "chevronLeft", "chevronRight", "send"]);
