import sanitizeHtml from 'sanitize-html';
import { ARTICLE_ATTRIBUTES, ARTICLE_TAGS } from '../../domain/courses/article-html.rules.ts';
import type { BlockFields } from '../../domain/courses/course.rules.ts';

/**
 * Article HTML written by editors is shown to every participant: only formatting, links and images
 * stay (no scripts, styles, event handlers or frames), and links open safely.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...ARTICLE_TAGS],
  // target and rel are allowed because the transform below sets them on every link.
  allowedAttributes: { ...ARTICLE_ATTRIBUTES, a: [...(ARTICLE_ATTRIBUTES.a ?? []), 'target', 'rel'] },
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
