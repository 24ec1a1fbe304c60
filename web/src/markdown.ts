import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * Markdown to HTML that is safe to insert: marked renders, DOMPurify removes scripts, event
 * handlers, styles and anything but http(s)/mailto links; links open in a new tab without a
 * referrer. Images are dropped (the page's CSP would block remote ones anyway).
 */
export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  const clean = DOMPurify.sanitize(html, {
    FORBID_TAGS: ['img', 'style', 'form', 'input', 'iframe'],
    FORBID_ATTR: ['style'],
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
    RETURN_TRUSTED_TYPE: false,
  });
  const template = document.createElement('template');
  template.innerHTML = clean;
  for (const link of template.content.querySelectorAll('a')) {
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer');
  }
  return template.innerHTML;
}
