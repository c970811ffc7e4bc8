import { ARTICLE_ATTRIBUTES, ARTICLE_TAGS as ARTICLE_TAG_LIST } from '../../../../../domain/courses/article-html.rules.ts';

/**
 * HTML of a version under review, made safe again in the browser (issue 36 item 2). The API
 * sanitises an article and keeps only Interactr's iframe of an embed when they are saved
 * (application/courses/sanitize-block.ts), and the participant page renders them as saved. The
 * review page is where an approver types their password to sign, so it does not rely on that alone:
 * the same allow-list is applied here (a version saved before a rule tightened, or by an import,
 * reads the same as a clean one, and a script never runs next to the password field).
 *
 * The HTML is parsed inert (in a template, which runs no scripts and loads nothing) and rebuilt from
 * allowed elements and attributes only.
 */

/** The article's tags and attributes, as the API allows them (one list: domain/courses/article-html.rules.ts). */
const ARTICLE_TAGS: ReadonlySet<string> = new Set(ARTICLE_TAG_LIST);
/** Elements dropped with everything inside them (their text is no article text). */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'template',
  'noscript',
  'textarea',
  'select',
  'svg',
  'math',
  'head',
  'title',
]);

const INTERACTR_HOSTS = new Set(['interactr.io', 'player.interactr.io', 'app.interactr.io', 'embed.interactr.io']);
const IFRAME_ATTRIBUTES = ['width', 'height', 'allow', 'allowfullscreen', 'frameborder', 'title'];

/** Whether a URL is allowed in an attribute: https and mailto links, https and data images. */
const allowedUrl = (value: string, tag: string) => {
  // The URL parser drops tabs, newlines and leading control characters and spaces: read it as a browser would.
  const trimmed = [...value].filter((c) => c.charCodeAt(0) > 0x20).join('');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === undefined) return !trimmed.startsWith('//') && !trimmed.startsWith('\\');
  if (tag === 'img') return scheme === 'https' || (scheme === 'data' && /^data:image\/(png|jpe?g|gif|webp);/i.test(trimmed));
  return scheme === 'https' || scheme === 'mailto';
};

/** Parsed inert: a template's content runs no script and loads nothing (no image, no frame). */
const parse = (html: string) => {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content;
};

const copyArticle = (source: Node, target: Node, doc: Document) => {
  for (const child of Array.from(source.childNodes)) {
    if (child.nodeType === 3) {
      target.appendChild(doc.createTextNode(child.textContent ?? ''));
      continue;
    }
    if (child.nodeType !== 1) continue;
    const element = child as Element;
    const tag = element.tagName.toLowerCase();
    if (DROPPED_WITH_CONTENT.has(tag)) continue;
    if (!ARTICLE_TAGS.has(tag)) {
      // An element not allowed keeps its text and allowed children, as the API's sanitiser does.
      copyArticle(element, target, doc);
      continue;
    }
    const clean = doc.createElement(tag);
    for (const name of ARTICLE_ATTRIBUTES[tag] ?? []) {
      const value = element.getAttribute(name);
      if (value === null) continue;
      if ((name === 'href' || name === 'src') && !allowedUrl(value, tag)) continue;
      clean.setAttribute(name, value);
    }
    if (tag === 'a') {
      clean.setAttribute('target', '_blank');
      clean.setAttribute('rel', 'noopener noreferrer');
    }
    copyArticle(element, clean, doc);
    target.appendChild(clean);
  }
};

/** An article's HTML with only the tags, attributes and URLs the API allows. */
export const safeArticleHtml = (html: string): string => {
  const source = parse(html);
  const out = document.implementation.createHTMLDocument('');
  const root = out.createElement('div');
  copyArticle(source, root, out);
  return root.innerHTML;
};

/** The iframes of an Interactr embed whose https source is on Interactr's hosts, with their size attributes; nothing else. */
export const safeInteractrHtml = (html: string): string => {
  const source = parse(html);
  const out = document.implementation.createHTMLDocument('');
  const root = out.createElement('div');
  for (const frame of Array.from(source.querySelectorAll('iframe'))) {
    const src = frame.getAttribute('src') ?? '';
    let url: URL;
    try {
      url = new URL(src);
    } catch {
      continue;
    }
    if (url.protocol !== 'https:' || !INTERACTR_HOSTS.has(url.hostname)) continue;
    const clean = out.createElement('iframe');
    clean.setAttribute('src', url.href);
    for (const name of IFRAME_ATTRIBUTES) {
      const value = frame.getAttribute(name);
      if (value !== null) clean.setAttribute(name, value);
    }
    root.appendChild(clean);
  }
  return root.innerHTML;
};

/** Whether the article shows anything from outside the platform (an image by https): it may change after approval. */
export const articleHasExternalMedia = (html: string) =>
  Array.from(parse(safeArticleHtml(html)).querySelectorAll('img')).some((img) => /^https:/i.test(img.getAttribute('src') ?? ''));
