import sanitizeHtml from 'sanitize-html';

/**
 * A news item's content is shown in every recipient's pop-up: only formatting, links and images
 * stay (no scripts, styles, event handlers or frames), and links open in a new tab without access
 * to the platform's window. The same allowance as a course's article (application/courses).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'h2', 'h3', 'h4', 'strong', 'b', 'em', 'i', 'u', 's', 'ul', 'ol', 'li', 'blockquote', 'a', 'img', 'hr', 'sup', 'sub', 'span'],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'width', 'height'] },
  allowedSchemes: ['https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
};

export const sanitizeNewsContent = (html: string) => sanitizeHtml(html, OPTIONS).trim();
