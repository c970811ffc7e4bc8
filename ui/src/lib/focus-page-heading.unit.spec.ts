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

  it('leaves the focus where someone put it meanwhile: a field being typed in, a dialog the page opened, a tab list, the page itself', () => {
    document.body.innerHTML =
      '<header><a id="from" href="/">x</a><button id="menu" aria-haspopup="menu">Podatki</button></header>' +
      '<div role="dialog" id="drawer"><a id="drawer-link" href="/y">y</a></div><div role="dialog"><button id="news">Kasneje</button></div>' +
      '<main><input id="field"><div role="tablist"><a id="tab" href="/t">t</a></div><button id="result">Rezultat</button></main>';
    const from = document.getElementById('from');
    const by = (id: string) => document.getElementById(id);
    expect(focusMayMove(document.body, from)).toBe(true);
    expect(focusMayMove(from, from)).toBe(true);
    // A menu's button the focus was handed back to, the drawer the navigation came from.
    expect(focusMayMove(by('menu'), by('drawer-link'))).toBe(true);
    expect(focusMayMove(by('drawer-link'), by('drawer-link'))).toBe(true);
    expect(focusMayMove(by('field'), from)).toBe(false);
    expect(focusMayMove(by('news'), from)).toBe(false);
    expect(focusMayMove(by('tab'), by('tab'))).toBe(false);
    expect(focusMayMove(by('result'), from)).toBe(false);
  });

  it('takes the focus back when a closing menu hands it to its button', async () => {
    document.body.innerHTML = '<header><button id="menu">Podatki</button></header><main id="main"><h1>Statistika</h1></main>';
    const stop = focusPageHeading();
    expect(document.activeElement?.tagName).toBe('H1');
    document.getElementById('menu')?.focus();
    expect(document.activeElement?.tagName).toBe('H1');
    stop();
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
