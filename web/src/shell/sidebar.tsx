import { GROUPS, type ViewEntry, type ViewProps } from '../views/registry.ts';
import { THEMES, type Theme } from '../theme.ts';

/**
 * The views' links by group, the theme choice and the shortcuts button: a sidebar at desktop
 * width, a drawer (shown while `open`) on a phone.
 */
export function Sidebar(props: {
  views: readonly ViewEntry[];
  current: ViewEntry;
  context: ViewProps | undefined;
  open: boolean;
  theme: Theme;
  onTheme: (theme: Theme) => void;
  onShortcuts: () => void;
}) {
  const { views, current, context } = props;
  return (
    <aside id="sidebar" class={props.open ? 'sidebar open' : 'sidebar'}>
      <nav aria-label="Views">
        {GROUPS.map((group) => {
          const members = views.filter((view) => view.group === group);
          if (members.length === 0) return null;
          const id = `group-${group.toLowerCase()}`;
          return (
            <div key={group} class="nav-group">
              <p id={id} class="group-name">
                {group}
              </p>
              <ul aria-labelledby={id}>
                {members.map((view) => {
                  const count = context && view.badge ? view.badge(context) : 0;
                  const active = view.id === current.id;
                  return (
                    <li key={view.id}>
                      <a
                        href={`#${view.id}`}
                        data-view={view.id}
                        aria-current={active ? 'page' : undefined}
                        class={active ? 'nav-link active' : 'nav-link'}
                      >
                        {view.label}
                        {count > 0 ? (
                          <span class="badge" aria-label={`${count} pending`}>
                            {count}
                          </span>
                        ) : null}
                      </a>
                    </li>
                  );
                })}
              </ul>
            </div>
          );
        })}
      </nav>
      <div class="sidebar-foot">
        <label>
          Theme
          <select
            value={props.theme}
            onChange={(event) => props.onTheme(event.currentTarget.value as Theme)}
          >
            {THEMES.map((theme) => (
              <option key={theme} value={theme}>
                {theme[0]?.toUpperCase()}
                {theme.slice(1)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" class="plain" onClick={props.onShortcuts}>
          Shortcuts <kbd aria-hidden="true">?</kbd>
        </button>
      </div>
    </aside>
  );
}
