import { useEffect, useRef } from 'preact/hooks';
import type { ViewEntry } from '../views/registry.ts';

/** The shortcuts as a modal dialog (native <dialog>: focus kept inside, Esc closes it). */
export function ShortcutsDialog(props: {
  open: boolean;
  views: readonly ViewEntry[];
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  // Each row: the keys pressed one after the other, and what they do.
  const rows: [string[], string][] = [
    [['/'], 'Focus the message or search field'],
    [['Ctrl+K'], 'Focus the message or search field (also while typing)'],
    ...props.views.flatMap((view): [string[], string][] =>
      view.key ? [[['g', view.key], `Go to ${view.label}`]] : [],
    ),
    [['?'], 'Show this list'],
    [['Esc'], 'Close the menu or this dialog'],
  ];
  return (
    <dialog
      ref={ref}
      class="shortcuts"
      aria-labelledby="shortcuts-title"
      onClose={props.onClose}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (event.target === ref.current) props.onClose();
      }}
    >
      <div class="shortcuts-body">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([keys, action]) => (
              <tr key={keys.join(' ')}>
                <td>
                  {keys.map((key, i) => (
                    <span key={i}>
                      {i > 0 ? ' then ' : ''}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </td>
                <td>{action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button type="button" onClick={props.onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
