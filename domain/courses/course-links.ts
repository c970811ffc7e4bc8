/**
 * The courses a text links to (issue 36, decision 0062): a news item's button and text, a newsletter
 * issue's address and description. An RX course may reach only prescribing professions, so a link to
 * one decides who gets the text; the links must be found however they are written, not only as the
 * plain path an editor usually types.
 *
 * A browser follows `/izobrazevanja/7` written as `&#47;izobrazevanja&#x2F;7`, `%2Fizobrazevanja%2F7`,
 * `/IZOBRAZEVANJA/7`, `\izobrazevanja\7`, `/izobrazevanja/./07` or with tabs and newlines inside
 * (the URL parser drops them), and the router matches paths case-insensitively and decodes them. So
 * the text is decoded (HTML character references and percent escapes, repeatedly, as double
 * encoding is also followed by some path), tabs and newlines dropped, dot segments resolved, and
 * only then matched. Finding a link that is not one only keeps a text from a reader who could not
 * receive the course anyway; missing one would send RX material to the public.
 */

/** The participant's paths that open a course (`/izobrazevanja/{id}…`, `/courses/{id}/end`); the admin's (`/admin/courses/{id}`) as well. */
const COURSE_PATH = /[/\\](?:izobrazevanja|courses)[/\\]+0*(\d{1,15})(?!\d)/gi;

/** Named references a path can be written with (the numeric ones are decoded by number). */
const NAMED: Readonly<Record<string, string>> = {
  sol: '/',
  bsol: '\\',
  amp: '&',
  period: '.',
  num: '#',
  percnt: '%',
  semi: ';',
  colon: ':',
  tab: '\t',
  newline: '\n',
  lowbar: '_',
  hyphen: '-',
  dash: '-',
};

const fromCodePoint = (code: number, original: string) => (Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : original);

/** HTML character references, with or without the closing semicolon (browsers accept both in attributes). */
const decodeReferences = (text: string) =>
  text
    .replace(/&#x([0-9a-f]{1,8});?/gi, (m, hex: string) => fromCodePoint(Number.parseInt(hex, 16), m))
    .replace(/&#(\d{1,9});?/g, (m, dec: string) => fromCodePoint(Number.parseInt(dec, 10), m))
    .replace(/&([a-z]{2,8});?/gi, (m, name: string) => NAMED[name.toLowerCase()] ?? m);

/** Percent escapes of single bytes; a malformed or multi-byte escape stays as it is (it spells no path character). */
const decodePercent = (text: string) =>
  text.replace(/%([0-9a-f]{2})/gi, (m, hex: string) => (Number.parseInt(hex, 16) < 0x80 ? String.fromCharCode(Number.parseInt(hex, 16)) : m));

/** How many rounds of decoding at most: enough for any encoding a browser or router undoes, bounded for long texts. */
const ROUNDS = 5;
/** How many levels of `/segment/..` are resolved at most. */
const DOT_ROUNDS = 20;

/**
 * A text as the links in it lead: decoded until it no longer changes, without tabs and newlines;
 * and the same with dot segments resolved. Both are searched: resolving `/segment/..` finds
 * `/izobrazevanja/x/../7`, and the text as decoded keeps a link that some unrelated `/..` after it
 * would otherwise swallow.
 */
export const linkForms = (text: string): [string, string] => {
  let current = text;
  for (let round = 0; round < ROUNDS; round++) {
    const next = decodePercent(decodeReferences(current));
    if (next === current) break;
    current = next;
  }
  const decoded = current.replace(/[\t\n\r]/g, '');
  // `/./` is the same place; `/segment/../` goes back one (as the URL parser resolves them). A segment
  // is what an address can hold (no spaces, quotes or angle brackets). Bounded, as a text could nest
  // them deeper than any link does (each round resolves one level).
  let resolved = decoded;
  for (let round = 0; round < DOT_ROUNDS; round++) {
    const next = resolved.replace(/[/\\]\.(?=[/\\])/g, '').replace(/[/\\][^/\\\s"'<>]+[/\\]\.\.(?=[/\\]|$)/g, '');
    if (next === resolved) break;
    resolved = next;
  }
  return [decoded, resolved];
};

/** The text as decoded (see linkForms). */
export const linkForm = (text: string) => linkForms(text)[0];

/** The ids of the courses the texts link to, each once, in the order found. */
export const linkedCourseIds = (...texts: readonly (string | null | undefined)[]): number[] => {
  const ids = new Set<number>();
  for (const text of texts) {
    if (!text) continue;
    for (const form of linkForms(text)) {
      for (const match of form.matchAll(COURSE_PATH)) {
        const id = Number(match[1]);
        if (Number.isSafeInteger(id) && id > 0) ids.add(id);
      }
    }
  }
  return [...ids];
};

/**
 * The links of several items (news items, newsletter issues), each found in its texts: every
 * course linked (to ask the read model which of them the reader may not receive), and the items
 * that link any of a set of courses (those kept from the reader).
 */
export const linksOf = <T extends { readonly id: number }>(items: readonly T[], texts: (item: T) => readonly (string | null | undefined)[]) => {
  const byItem = new Map(items.map((item) => [item.id, linkedCourseIds(...texts(item))]));
  return {
    courseIds: [...new Set([...byItem.values()].flat())],
    linking: (courseIds: ReadonlySet<number>) =>
      new Set(items.filter((item) => (byItem.get(item.id) ?? []).some((id) => courseIds.has(id))).map((item) => item.id)),
  };
};
