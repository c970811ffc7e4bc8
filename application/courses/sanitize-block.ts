import sanitizeHtml from 'sanitize-html';
import type { BlockFields } from '../../domain/courses/course.rules.ts';

/**
 * Article HTML written by editors is shown to every participant: only formatting, links and images
 * stay (no scripts, styles, event handlers or frames), and links open safely.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
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
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'width', 'height'], th: ['colspan', 'rowspan'], td: ['colspan', 'rowspan'] },
  allowedSchemes: ['https', 'mailto'],
  allowedSchemesByTag: { img: ['https', 'data'] },
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
};

export const sanitizeArticle = (html: string) => sanitizeHtml(html, OPTIONS);

export const sanitizeBlock = (block: BlockFields): BlockFields => {
  if (block.kind === 'article') return { ...block, html: sanitizeArticle(block.html) };
  if (block.kind === 'interactr') return { ...block, html: sanitizeInteractr(block.html) };
  if (block.kind === 'video' && block.alternative?.kind === 'article')
    return { ...block, alternative: { ...block.alternative, html: sanitizeArticle(block.alternative.html) } };
  return block;
};

/**
 * Interactr embed code (spec §3): only an iframe whose source is on Interactr's hosts, with its
 * size and fullscreen attributes. Anything else (scripts, other frames, handlers) is dropped.
 */
export const sanitizeInteractr = (html: string) =>
  sanitizeHtml(html, {
    allowedTags: ['iframe'],
    allowedAttributes: { iframe: ['src', 'width', 'height', 'allow', 'allowfullscreen', 'frameborder', 'title'] },
    allowedSchemes: ['https'],
    allowedIframeHostnames: ['interactr.io', 'player.interactr.io', 'app.interactr.io', 'embed.interactr.io'],
    allowIframeRelativeUrls: false,
  }).trim();
