/** Colours of the dashboard; with `NO_COLOR` none at all (no escape sequence for styling). */
export interface Theme {
  ok?: string;
  warn?: string;
  bad?: string;
  accent?: string;
  /** Bold titles and dim secondary text; off with NO_COLOR too. */
  styled: boolean;
}

export function theme(color: boolean): Theme {
  return color
    ? { ok: 'green', warn: 'yellow', bad: 'red', accent: 'cyan', styled: true }
    : { styled: false };
}
