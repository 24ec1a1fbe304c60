/**
 * What a reply's code blocks and tables get besides their sanitised markup: a header over each
 * code block with its language and a Copy button, syntax colours once highlight.ts has loaded
 * (a separate chunk, fetched the first time a reply holds a block in a known language), and a
 * wrapper that lets a wide table scroll sideways from the keyboard. Everything here is built
 * with DOM calls and text nodes, never from the reply's text as HTML.
 */

/** `language-xyz` of a `<code>` element, when it names a plausible language. */
export function languageOf(code: Element): string | undefined {
  for (const name of code.classList) {
    const match = /^language-([\w+#.-]{1,24})$/.exec(name);
    if (match) return match[1]?.toLowerCase();
  }
  return undefined;
}

/** Wraps each `<pre><code>` in a figure-like block with a header: language label, Copy. */
export function frameCodeBlocks(root: DocumentFragment): void {
  for (const pre of root.querySelectorAll('pre')) {
    const code = pre.querySelector('code');
    if (!code || pre.parentElement?.classList.contains('code-block')) continue;
    const block = document.createElement('div');
    block.className = 'code-block';
    const head = document.createElement('div');
    head.className = 'code-head';
    const label = document.createElement('span');
    label.className = 'code-lang';
    label.textContent = languageOf(code) ?? 'text';
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'copy-code';
    copy.setAttribute('data-copy-code', '');
    copy.append(copyLabel('Copy'));
    head.append(label, copy);
    pre.replaceWith(block);
    pre.tabIndex = 0;
    block.append(head, pre);
  }
}

/** "Copy" / "Copied" with " code" for screen readers (the button's accessible name). */
function copyLabel(word: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const hidden = document.createElement('span');
  hidden.className = 'visually-hidden';
  hidden.textContent = ' code';
  fragment.append(word, hidden);
  return fragment;
}

/** Each table in a focusable, labelled wrapper that scrolls sideways on a narrow screen. */
export function wrapTables(root: DocumentFragment): void {
  for (const table of root.querySelectorAll('table')) {
    const wrapper = document.createElement('div');
    wrapper.className = 'table-scroll';
    wrapper.setAttribute('role', 'group');
    wrapper.setAttribute('aria-label', 'Table (scrolls sideways)');
    wrapper.tabIndex = 0;
    table.replaceWith(wrapper);
    wrapper.append(table);
  }
}

/**
 * A click on a block's Copy button (delegated from the reply's container): the block's code to
 * the clipboard, then "Copied" for two seconds, announced by the block's status line.
 */
export async function copyFromClick(event: MouseEvent): Promise<void> {
  const button = (event.target as Element | null)?.closest?.('button[data-copy-code]');
  const code = button?.closest('.code-block')?.querySelector('pre code');
  if (!(button instanceof HTMLButtonElement) || !code) return;
  const text = code.textContent ?? '';
  let copied: boolean;
  try {
    await navigator.clipboard.writeText(text);
    copied = true;
  } catch {
    copied = copyBySelection(code);
  }
  button.replaceChildren(copyLabel(copied ? 'Copied' : 'Copy failed'));
  button.classList.toggle('copied', copied);
  setTimeout(() => {
    button.replaceChildren(copyLabel('Copy'));
    button.classList.remove('copied');
  }, 2_000);
}

/** Where the async clipboard is missing (plain http on a LAN address): select and copy. */
function copyBySelection(code: Element): boolean {
  const selection = getSelection();
  if (!selection) return false;
  const range = document.createRange();
  range.selectNodeContents(code);
  selection.removeAllRanges();
  selection.addRange(range);
  // The only way to copy without the async clipboard (deprecated, still everywhere).
  const done = document.execCommand('copy');
  selection.removeAllRanges();
  return done;
}

/** Colours the blocks under `root` in a known language (loads highlight.ts the first time). */
export async function highlightBlocks(root: HTMLElement): Promise<void> {
  const blocks = [...root.querySelectorAll<HTMLElement>('.code-block pre code')].filter(
    (code) => languageOf(code) !== undefined && !code.classList.contains('hljs'),
  );
  if (blocks.length === 0) return;
  const { highlightCode } = await import('./highlight.ts');
  for (const code of blocks) highlightCode(code);
}
