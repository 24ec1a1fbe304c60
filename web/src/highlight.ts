import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

/**
 * highlight.js core with the languages replies mostly hold (their usual aliases too: js, ts, py,
 * sh, zsh, console, yml, toml, golang, rs, patch, html, svg). Loaded on demand: its own chunk.
 */
const LANGUAGES = {
  bash,
  css,
  diff,
  go,
  ini,
  javascript,
  json,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language);
hljs.registerAliases(['toml'], { languageName: 'ini' });

/**
 * Colours one `<code class="language-…">` in place when its language is known. highlight.js
 * reads the element's text (never its markup) and writes back escaped text in `hljs-*` spans.
 */
export function highlightCode(code: HTMLElement): void {
  const name = [...code.classList].find((c) => c.startsWith('language-'))?.slice(9);
  if (!name || !hljs.getLanguage(name)) return;
  const text = code.textContent ?? '';
  const { value } = hljs.highlight(text, { language: name, ignoreIllegals: true });
  // Escaped by highlight.js already; only its spans and classes are let through regardless.
  code.innerHTML = DOMPurify.sanitize(value, {
    ALLOWED_TAGS: ['span'],
    ALLOWED_ATTR: ['class'],
    RETURN_TRUSTED_TYPE: false,
  });
  code.classList.add('hljs');
}
