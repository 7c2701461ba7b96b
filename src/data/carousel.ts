/** Carousel constants. */
export const CAROUSEL = {
  autoplayMs: 6000,
  lockMs: 500,
  swipePx: 50,
  breakpoints: { md: 768, lg: 1024 },
  heightPx: 450,
} as const;
