import { useEffect, useState } from 'react';

/** spec §9: below 768 px the app is mobile. */
export const MOBILE_BREAKPOINT = 768;

/** The bars that hide while scrolling: while hidden they are inert, so they are marked to be found again. */
const HIDING_BARS = '[data-hides-on-scroll]';

/**
 * Whether the header and footer should hide: on a mobile width, while the user scrolls down;
 * scrolling up (or reaching the top) shows them again.
 *
 * Issue 33 item 5: hidden bars are inert (out of the Tab order), so focus never lands on a link off
 * the screen. A keyboard user is never left without them either: a Tab shows them again (the inert
 * goes at once, before the browser moves the focus, so Shift+Tab reaches the header's last link)
 * and, until the pointer, a touch or the wheel is used again, scrolling (which the focus itself causes)
 * does not hide them.
 */
export const useHideOnScroll = () => {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let last = window.scrollY;
    let keyboard = false;
    const onScroll = () => {
      const y = window.scrollY;
      if (keyboard || window.innerWidth >= MOBILE_BREAKPOINT || y <= 0) setHidden(false);
      else if (y > last + 4) setHidden(true);
      else if (y < last - 4) setHidden(false);
      last = y;
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Tab') return;
      keyboard = true;
      for (const bar of document.querySelectorAll<HTMLElement>(HIDING_BARS)) {
        bar.inert = false;
        bar.removeAttribute('aria-hidden');
      }
      setHidden(false);
    };
    const onPointer = () => {
      keyboard = false;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    window.addEventListener('keydown', onKey, true);
    window.addEventListener('pointerdown', onPointer, { passive: true });
    window.addEventListener('wheel', onPointer, { passive: true });
    window.addEventListener('touchstart', onPointer, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      window.removeEventListener('keydown', onKey, true);
      window.removeEventListener('pointerdown', onPointer);
      window.removeEventListener('wheel', onPointer);
      window.removeEventListener('touchstart', onPointer);
    };
  }, []);
  return hidden;
};

/** The attributes of a bar that hides on scroll: inert and hidden from assistive technology while hidden. */
export const hidingBarProps = (hidden: boolean) => ({
  'data-hides-on-scroll': true,
  'data-hidden': hidden,
  inert: hidden,
  'aria-hidden': hidden ? true : undefined,
});
