import { useEffect, useRef, useState } from 'react';

/** spec §9: loading indicators show for at least 200 ms, so a quick load does not flicker. */
export const MINIMUM_LOADING_MS = 200;

export const useMinimumDelay = (active: boolean, minimumMs = MINIMUM_LOADING_MS) => {
  const [visible, setVisible] = useState(active);
  const shownAt = useRef<number | null>(active ? Date.now() : null);
  useEffect(() => {
    if (active) {
      shownAt.current = Date.now();
      setVisible(true);
      return;
    }
    if (shownAt.current === null) return;
    const remaining = minimumMs - (Date.now() - shownAt.current);
    if (remaining <= 0) {
      setVisible(false);
      shownAt.current = null;
      return;
    }
    const timer = setTimeout(() => {
      setVisible(false);
      shownAt.current = null;
    }, remaining);
    return () => clearTimeout(timer);
  }, [active, minimumMs]);
  return visible;
};
