/** The built-ins the tools area registers, reserved by its installer before any skill loads. */
export const BUILTIN_TOOLS = ['shell', 'browser'] as const;
