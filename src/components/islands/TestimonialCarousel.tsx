import {
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type PointerEvent as ReactPointerEvent,
} from "react";
import { Swiper, SwiperSlide } from "swiper/react";
import { A11y, Autoplay } from "swiper/modules";
import type { Swiper as SwiperInstance } from "swiper";
import "swiper/css";
import { CAROUSEL } from "#src/data/carousel.ts";
import { localizeDigits } from "#shared/format.ts";
import type { Language } from "#shared/languages.ts";
import { StrokeIcon } from "../ui/StrokeIcon";

export interface TestimonialCard {
  id: string;
  author: string;
  /** Shown in the avatar when there is no photo. */
  initials: string;
  photo?: { src: string; alt: string };
  /** Role and company ("Founder, Arvan Health"). */
  company: string;
  linkedinUrl: string;
  linkedinLabel: string;
  /** Text with its emoji already placed (lib/testimonial-text.ts). */
  text: string;
  stars: { full: number; half: number; empty: number };
  ratingLabel: string;
}

export interface TestimonialCarouselProps {
  items: TestimonialCard[];
  lang: Language;
  rtl: boolean;
  labels: {
    carousel: string;
    previous: string;
    next: string;
    group: string;
    pause: string;
    play: string;
    slide: string;
  };
}

const STAR = "M12 2.8l2.8 5.8 6.3.9-4.6 4.4 1.1 6.3L12 17.2l-5.6 3 1.1-6.3-4.6-4.4 6.3-.9z";

/**
 * One rating star. The half star is a grey star under the gold one clipped to its first half by a
 * nested <svg> (which clips to its own box): no gradient, so no id repeated on every card.
 */
const Star = ({ kind }: { kind: "full" | "half" | "empty" }) => (
  <svg className="size-5 rtl:-scale-x-100" viewBox="0 0 24 24" aria-hidden="true">
    <path d={STAR} fill={kind === "full" ? "#f59e0b" : "#e2e8f0"} />
    {kind === "half" && (
      <svg width="12" height="24" viewBox="0 0 12 24">
        <path d={STAR} fill="#f59e0b" />
      </svg>
    )}
  </svg>
);

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";
const subscribeReducedMotion = (onChange: () => void) => {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
};
const reducedMotion = () => window.matchMedia(REDUCED_MOTION).matches;

/**
 * The carousel's motion: the Swiper instance, its groups (how many, which is shown), a move to the
 * next or previous group (wrapping) or to a numbered one, locked for CAROUSEL.lockMs after each; the
 * autoplay, on unless the visitor prefers reduced motion or pressed pause (or play, which wins); and
 * a swipe of more than CAROUSEL.swipePx, mirrored in Persian.
 */
function useCarousel(rtl: boolean) {
  const swiperRef = useRef<SwiperInstance | null>(null);
  const lockedUntil = useRef(0);
  const startX = useRef<number | null>(null);
  const [groups, setGroups] = useState({ count: 0, active: 0 });

  const sync = useCallback((s: SwiperInstance) => {
    setGroups({ count: s.snapGrid.length, active: s.snapIndex });
  }, []);

  const go = useCallback((move: "next" | "prev" | number) => {
    const s = swiperRef.current;
    const now = Date.now();
    if (!s || now < lockedUntil.current) return;
    const last = s.snapGrid.length - 1;
    const target =
      move === "next"
        ? s.snapIndex >= last
          ? 0
          : s.snapIndex + 1
        : move === "prev"
          ? s.snapIndex <= 0
            ? last
            : s.snapIndex - 1
          : move;
    // A tap on the group already shown moves nothing, so it does not lock the next tap out.
    if (target === s.snapIndex) return;
    lockedUntil.current = now + CAROUSEL.lockMs;
    s.slideTo(Math.min(target * (s.params.slidesPerGroup as number), s.slides.length - 1), CAROUSEL.lockMs);
  }, []);

  const prefersReducedMotion = useSyncExternalStore(subscribeReducedMotion, reducedMotion, () => false);
  const [choice, setChoice] = useState<boolean | null>(null);
  const playing = choice ?? !prefersReducedMotion;
  useEffect(() => {
    const autoplay = swiperRef.current?.autoplay;
    if (!autoplay) return;
    if (playing) autoplay.start();
    else autoplay.stop();
  }, [playing]);

  const togglePlay = () => setChoice(!playing);

  const swipe = {
    onPointerDown: (e: ReactPointerEvent) => {
      startX.current = e.clientX;
    },
    onPointerUp: (e: ReactPointerEvent) => {
      if (startX.current === null) return;
      const dx = e.clientX - startX.current;
      startX.current = null;
      if (Math.abs(dx) <= CAROUSEL.swipePx) return;
      const forward = rtl ? dx > 0 : dx < 0;
      go(forward ? "next" : "prev");
    },
    onPointerCancel: () => (startX.current = null),
  };

  const attach = (s: SwiperInstance) => {
    swiperRef.current = s;
    sync(s);
  };

  return { groups, sync, attach, go, playing, togglePlay, swipe };
}

/**
 * The testimonial carousel: groups of 3/2/1 by width, 6 s autoplay that wraps,
 * one dot per group, arrows on wide screens, a 50 px swipe (mirrored in Persian), 500 ms lock.
 */
export default function TestimonialCarousel({ items, lang, rtl, labels }: TestimonialCarouselProps) {
  const { groups, sync, attach, go, playing, togglePlay, swipe } = useCarousel(rtl);

  const arrow = (dir: "prev" | "next") => (
    <button
      type="button"
      onClick={() => go(dir)}
      aria-label={dir === "prev" ? labels.previous : labels.next}
      className="absolute top-1/2 z-10 hidden size-12 -translate-y-1/2 items-center justify-center rounded-full border border-line bg-white text-brand-800 shadow-card hover:bg-brand-50 lg:flex data-[dir=next]:-end-6 data-[dir=prev]:-start-6"
      data-dir={dir}
    >
      <StrokeIcon name={dir === "prev" ? "chevronLeft" : "chevronRight"} />
    </button>
  );

  return (
    <div
      className="testimonial-carousel relative"
      role="region"
      aria-roledescription="carousel"
      aria-label={labels.carousel}
    >
      {arrow("prev")}
      <div
        onPointerDown={swipe.onPointerDown}
        onPointerUp={swipe.onPointerUp}
        onPointerCancel={swipe.onPointerCancel}
        className="touch-pan-y"
      >
        <Swiper
          modules={[A11y, Autoplay]}
          dir={rtl ? "rtl" : "ltr"}
          allowTouchMove={false}
          speed={CAROUSEL.lockMs}
          spaceBetween={24}
          slidesPerView={1}
          slidesPerGroup={1}
          rewind
          autoplay={{ delay: CAROUSEL.autoplayMs, disableOnInteraction: false, pauseOnMouseEnter: true }}
          breakpoints={{
            [CAROUSEL.breakpoints.md]: { slidesPerView: 2, slidesPerGroup: 2 },
            [CAROUSEL.breakpoints.lg]: { slidesPerView: 3, slidesPerGroup: 3 },
          }}
          a11y={{ slideLabelMessage: labels.slide, prevSlideMessage: labels.previous, nextSlideMessage: labels.next }}
          onSwiper={attach}
          onSlideChange={sync}
          onSnapGridLengthChange={sync}
          onBreakpoint={sync}
        >
          {items.map((item) => (
            <SwiperSlide key={item.id} className="testimonial-slide">
              <TestimonialFigure item={item} />
            </SwiperSlide>
          ))}
        </Swiper>
      </div>
      {arrow("next")}
      <div className="mt-8 flex min-h-11 items-center justify-center gap-3">
        <ul className="flex items-center gap-1" role="list">
          {dotsToShow(groups.count, items.length).map(({ key, hideFrom }, i) => (
            <li key={key} className={hideFrom}>
              <button
                type="button"
                onClick={() => go(i)}
                aria-label={labels.group.replace("{{number}}", localizeDigits(lang, String(i + 1)))}
                aria-current={i === groups.active ? "true" : undefined}
                className="group flex size-8 items-center justify-center rounded-full"
              >
                <span
                  className={`block h-2.5 rounded-full transition-all ${i === groups.active ? "w-7 bg-brand-600" : "w-2.5 bg-slate-300 group-hover:bg-slate-400"}`}
                />
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          onClick={togglePlay}
          aria-label={playing ? labels.pause : labels.play}
          className="flex size-8 items-center justify-center rounded-full text-slate-600 hover:bg-brand-50"
        >
          <svg className="size-4" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
            <path d={playing ? "M7 5h3v14H7zM14 5h3v14h-3z" : "M8 5l11 7-11 7z"} />
          </svg>
        </button>
      </div>
    </div>
  );
}

/** One testimonial's card: its stars, its text, and who wrote it with a link to their LinkedIn. */
function TestimonialFigure({ item }: { item: TestimonialCard }) {
  return (
    <figure className="card flex h-full flex-col p-6 sm:p-7 lg:p-6">
      <div className="flex items-center gap-1" role="img" aria-label={item.ratingLabel}>
        {Array.from({ length: item.stars.full }, (_, i) => (
          <Star key={`f${i}`} kind="full" />
        ))}
        {item.stars.half ? <Star kind="half" /> : null}
        {Array.from({ length: item.stars.empty }, (_, i) => (
          <Star key={`e${i}`} kind="empty" />
        ))}
      </div>
      <blockquote className="mt-5 flex-1 overflow-hidden text-[0.98rem] leading-relaxed text-slate-700 lg:text-[0.95rem]">
        <p>{item.text}</p>
      </blockquote>
      <figcaption className="mt-6 flex items-center gap-3 border-t border-line pt-5">
        {item.photo ? (
          <img
            src={item.photo.src}
            alt={item.photo.alt}
            width={44}
            height={44}
            loading="lazy"
            className="size-11 shrink-0 rounded-full object-cover"
          />
        ) : (
          <span
            className="flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800"
            aria-hidden="true"
          >
            {item.initials}
          </span>
        )}
        <span className="min-w-0 flex-1">
          <span className="block font-semibold text-brand-950">{item.author}</span>
          <span className="block text-sm leading-snug text-muted">{item.company}</span>
        </span>
        <a
          href={item.linkedinUrl}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={item.linkedinLabel}
          className="flex size-11 items-center justify-center rounded-xl text-brand-700 hover:bg-brand-50"
        >
          <svg
            className="size-5"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth={1.75}
            aria-hidden="true"
          >
            <path
              d="M4 4h16v16H4zM8 10v6M8 7.5v.01M12 16v-6M12 12.5c0-1.5 1-2.5 2.3-2.5S16 11 16 12.5V16"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </a>
      </figcaption>
    </figure>
  );
}

/**
 * The dots to render. Once Swiper runs it counts the groups; before that (the server's HTML and the
 * hydrating render) there is one dot per card, and CSS hides the ones a wider screen has no group
 * for, at the same breakpoints Swiper groups by (2 cards from `md`, 3 from `lg`), so the dots are
 * in the first paint where they will stay.
 */
function dotsToShow(counted: number, cards: number): { key: number; hideFrom?: string }[] {
  if (counted > 0) return Array.from({ length: counted }, (_, key) => ({ key }));
  return Array.from({ length: cards }, (_, key) => ({
    key,
    hideFrom: key >= Math.ceil(cards / 2) ? "md:hidden" : key >= Math.ceil(cards / 3) ? "lg:hidden" : undefined,
  }));
}
