/**
 * HTML of static pages and blog posts is sanitised before it is stored and
 * again before it is served: no scripts, no event handlers, no javascript:
 * links, no foreign iframes; headings, lists, tables, links and images stay.
 */
import sanitizeHtml from 'sanitize-html';

/** Video embeds allowed in content; any other iframe is dropped. */
export const ALLOWED_IFRAME_HOSTS = ['www.youtube-nocookie.com', 'www.youtube.com', 'player.vimeo.com'];

const options: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2',
    'h3',
    'h4',
    'p',
    'br',
    'hr',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'small',
    'sup',
    'sub',
    'mark',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'blockquote',
    'address',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'caption',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'iframe',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
    th: ['scope', 'colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
    iframe: ['src', 'width', 'height', 'title', 'allowfullscreen'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  allowedIframeHostnames: ALLOWED_IFRAME_HOSTS,
  // A heading level 1 belongs to the page title, not to its content.
  transformTags: {
    h1: 'h2',
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
  disallowedTagsMode: 'discard',
  // An iframe whose source was not allowed is dropped entirely.
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !frame.attribs.src,
};

export function sanitizeContentHtml(html: string): string {
  return sanitizeHtml(html, options);
}
