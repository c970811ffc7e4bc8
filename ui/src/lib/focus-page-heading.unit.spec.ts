// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { focusMayMove, focusPageHeading } from './focus-page-heading.ts';

const nextMutations = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  document.body.innerHTML = '';
});

describe('focus after a navigation (issue 33 item 5)', () => {
  it('goes to the new page’s heading once it shows, made focusable by script only', async () => {
    document.body.innerHTML = '<header><a href="/x" id="link">Izobraževanja</a></header><main id="main"></main>';
    document.getElementById('link')?.focus();
    const stop = focusPageHeading();
    document.getElementById('main')?.insertAdjacentHTML('beforeend', '<h1>Izobraževanja</h1>');
    await nextMutations();
    const h1 = document.querySelector('h1');
    expect(document.activeElement).toBe(h1);
    expect(h1?.getAttribute('tabindex')).toBe('-1');
    stop();
  });

  it('leaves the focus where someone put it meanwhile: a field being typed in, a dialog, a tab list', () => {
    document.body.innerHTML =
      '<a id="from" href="/">x</a><input id="field"><div role="dialog"><button id="b">x</button></div><div role="tablist"><a id="tab" href="/t">t</a></div>';
    const from = document.getElementById('from');
    expect(focusMayMove(document.body, from)).toBe(true);
    expect(focusMayMove(from, from)).toBe(true);
    expect(focusMayMove(document.getElementById('field'), from)).toBe(false);
    expect(focusMayMove(document.getElementById('b'), from)).toBe(false);
    expect(focusMayMove(document.getElementById('tab'), null)).toBe(false);
  });

  it('does not take the focus from a field the person is typing in when the heading comes', async () => {
    document.body.innerHTML = '<main id="main"><input id="field"></main>';
    const stop = focusPageHeading();
    document.getElementById('field')?.focus();
    document.getElementById('main')?.insertAdjacentHTML('afterbegin', '<h1>Prijava</h1>');
    await nextMutations();
    expect(document.activeElement?.id).toBe('field');
    stop();
  });
});
