import { Box, Text } from 'ink';
import { createElement as h, type ReactNode } from 'react';
import { fit } from '../format.ts';
import type { Theme } from './theme.ts';

/** A titled block of one-line rows, `width` columns wide; rows past `height` are dropped. */
export function Pane(props: {
  title: string;
  width: number;
  height?: number;
  theme: Theme;
  children?: ReactNode;
}): ReactNode {
  return h(
    Box,
    { flexDirection: 'column', width: props.width, height: props.height, overflow: 'hidden' },
    h(
      Text,
      { bold: props.theme.styled, color: props.theme.accent, wrap: 'truncate' },
      fit(props.title, props.width),
    ),
    props.children,
  );
}

/** One row of a pane, cut to `width` (never wrapped: the layout's heights stay exact). */
export function Row(props: { text: string; width: number; color?: string; dim?: boolean }) {
  return h(
    Text,
    { color: props.color, dimColor: props.dim, wrap: 'truncate' },
    fit(props.text, props.width),
  );
}
