/** Testimonial facts that do not change with language; the words live in the locale files. */
export interface TestimonialData {
  /** Key under testimonials.items in the locale files. */
  index: number;
  author: string;
  linkedinUrl: string;
  rating: number;
  emojis: readonly [string, string, string];
}

export const testimonials: readonly TestimonialData[] = [
  {
    index: 1,
    author: "Sara Rahimi",
    linkedinUrl: "https://www.linkedin.com/in/sara-rahimi",
    rating: 5,
    emojis: ["🤝", "✈️", "🌷"],
  },
  {
    index: 2,
    author: "Reza Karimi",
    linkedinUrl: "https://www.linkedin.com/in/reza-karimi",
    rating: 5,
    emojis: ["🏦", "📈", "🇪🇺"],
  },
  {
    index: 3,
    author: "Leila Ahmadi",
    linkedinUrl: "https://www.linkedin.com/in/leila-ahmadi",
    rating: 5,
    emojis: ["💡", "🚀", "🎉"],
  },
  {
    index: 4,
    author: "Daniel de Vries",
    linkedinUrl: "https://www.linkedin.com/in/daniel-de-vries",
    rating: 5,
    emojis: ["📄", "✅", "👏"],
  },
  {
    index: 5,
    author: "Maryam Hosseini",
    linkedinUrl: "https://www.linkedin.com/in/maryam-hosseini",
    rating: 4,
    emojis: ["🌍", "🤝", "📦"],
  },
  {
    index: 6,
    author: "Arash Moradi",
    linkedinUrl: "https://www.linkedin.com/in/arash-moradi",
    rating: 4,
    emojis: ["🏢", "⏳", "👍"],
  },
  {
    index: 7,
    author: "Sophie Janssen",
    linkedinUrl: "https://www.linkedin.com/in/sophie-janssen",
    rating: 5,
    emojis: ["🗺️", "🔑", "🌱"],
  },
];
