import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { frameCodeBlocks, wrapTables } from './code-blocks.ts';

/**
 * Markdown to HTML that is safe to insert: marked renders, DOMPurify removes scripts, event
 * handlers, styles, SVG and anything but http(s)/mailto links; links open in a new tab without a
 * referrer. Nothing in it loads by itself (Hearth issue #27: a reply the agent wrote must not
 * make the browser fetch a URL): an image becomes a link that says it is one and shows its
 * address, opened only if the user clicks it. The `<template>` that does this is inert, so the
 * image is never requested on the way. Code blocks get a header (language label, Copy button:
 * code-blocks.ts) and tables a keyboard-scrollable wrapper, built here after sanitising.
 */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  const clean = DOMPurify.sanitize(html, {
    // HTML only: no SVG or MathML (an SVG <image>, <use> or <feImage> would load its href).
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'iframe', 'video', 'audio', 'source', 'picture'],
    FORBID_ATTR: ['style', 'background', 'srcset', 'poster', 'ping'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
    RETURN_TRUSTED_TYPE: false,
  });
  const template = document.createElement('template');
  template.innerHTML = clean;
  for (const image of template.content.querySelectorAll('img')) image.replaceWith(imageLink(image));
  for (const link of template.content.querySelectorAll('a')) {
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer');
  }
  frameCodeBlocks(template.content);
  wrapTables(template.content);
  return template.innerHTML;
}

/** `![alt](url)` as a link reading "Image: alt (url)", or as plain text if the url is not http(s). */
function imageLink(image: HTMLImageElement): Node {
  const src = image.getAttribute('src') ?? '';
  const alt = image.getAttribute('alt') ?? '';
  const label = `Image: ${alt ? `${alt} ` : ''}(${src || 'no address'})`;
  if (!/^https?:/i.test(src)) return document.createTextNode(`[${label}]`);
  const link = document.createElement('a');
  link.setAttribute('href', src);
  link.className = 'image-link';
  link.textContent = label;
  return link;
}
