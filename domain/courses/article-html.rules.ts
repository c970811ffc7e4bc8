/**
 * What an article's HTML may hold (spec §3 article block): formatting, links and images, no scripts,
 * styles, handlers or frames. One list for the API, which sanitises an article when it is saved
 * (application/courses/sanitize-block.ts), and for the approvers' review, which applies it again in
 * the browser before showing a version next to the password field (ui/.../approvals/lib/safe-html.ts).
 */
export const ARTICLE_TAGS = [
  'p',
  'br',
  'h2',
  'h3',
  'h4',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'ul',
  'ol',
  'li',
  'blockquote',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'hr',
  'sup',
  'sub',
  'span',
] as const;

/** The attributes each tag keeps (a link's target and rel are set by the sanitiser, not taken from the author). */
export const ARTICLE_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title'],
  img: ['src', 'alt', 'width', 'height'],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
};
