/**
 * After a navigation the focus goes to the new page's heading (issue 33 item 5: it dropped to <body>,
 * so a keyboard or screen-reader user started again from the top of the document). One mechanism for
 * every page: the router's root calls it when the path changes.
 */

/** What a person types into: focus is never taken from it. */
const TYPING = 'input, textarea, select, [contenteditable="true"], [contenteditable=""]';

/** The page's heading: the first h1 of the main content (of the document for pages without a shell). */
const heading = () => document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');

/**
 * Whether the focus may still be moved to the heading: it is where the navigation left it (on <body>,
 * on the link or button that navigated, e.g. a menu link that stays on the page, in the closing menu
 * drawer it navigated from) or was handed back to a header control (a menu's button when its menu
 * closes). Focus someone or something put elsewhere stays: a field being typed in, a dialog the new
 * page opened (the news pop-up), a tab list (its tabs are pages, and the arrow keys move between them),
 * anything the page itself focused.
 */
export const focusMayMove = (active: Element | null, startedFrom: Element | null) => {
  if (!active || active === document.body || active === document.documentElement) return true;
  if (active.closest('[role="tablist"]')) return false;
  if (active === startedFrom) return true;
  if (active.matches(TYPING)) return false;
  const dialog = active.closest('[role="dialog"]');
  if (dialog) return startedFrom !== null && dialog.contains(startedFrom);
  return !active.closest('main');
};

/**
 * Focuses the heading (made focusable by script only, tabIndex -1) once the new page shows it. A page
 * that replaces its heading while it loads (a placeholder, then the record's title) gets the focus
 * on the new one, and a closing menu or drawer handing the focus back to its button does not take it
 * away; the person pressing a key or the pointer ends it, and so does `timeoutMs`.
 */
export const focusPageHeading = (timeoutMs = 10_000) => {
  const startedFrom = document.activeElement;
  let focused: HTMLElement | null = null;
  const attempt = () => {
    const h1 = heading();
    if (!h1 || h1 === focused) return;
    const active = document.activeElement;
    // Once a heading had the focus, only its loss (to <body>, the heading replaced) moves it again.
    if (focused ? active !== document.body : !focusMayMove(active, startedFrom)) return stop();
    if (!h1.hasAttribute('tabindex')) h1.tabIndex = -1;
    h1.focus({ preventScroll: true });
    focused = h1;
  };
  // Focus moved by script meanwhile (no key or pointer was used: those end this): a menu's or a drawer's
  // button getting it back goes to the heading again; anything else (a field, the page, a dialog) keeps it.
  const onFocusIn = (event: FocusEvent) => {
    const target = event.target;
    if (!focused?.isConnected || !(target instanceof Element) || target === focused) return;
    if (target.matches(TYPING) || target.closest('main, [role="dialog"]')) return stop();
    focused.focus({ preventScroll: true });
  };
  const observer = new MutationObserver(attempt);
  const timer = window.setTimeout(() => stop(), timeoutMs);
  const stop = () => {
    observer.disconnect();
    window.clearTimeout(timer);
    window.removeEventListener('keydown', stop, true);
    window.removeEventListener('pointerdown', stop, true);
    window.removeEventListener('focusin', onFocusIn, true);
  };
  window.addEventListener('keydown', stop, true);
  window.addEventListener('pointerdown', stop, true);
  window.addEventListener('focusin', onFocusIn, true);
  observer.observe(document.body, { childList: true, subtree: true });
  attempt();
  return stop;
};
