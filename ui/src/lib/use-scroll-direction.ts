import { useEffect, useState } from 'react';

/** spec §9: below 768 px the app is mobile. */
export const MOBILE_BREAKPOINT = 768;

/**
 * Whether the header and footer should hide: on a mobile width, while the user scrolls down;
 * scrolling up (or reaching the top) shows them again.
 */
export const useHideOnScroll = () => {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      if (window.innerWidth >= MOBILE_BREAKPOINT || y <= 0) setHidden(false);
      else if (y > last + 4) setHidden(true);
      else if (y < last - 4) setHidden(false);
      last = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
    };
  }, []);
  return hidden;
};
