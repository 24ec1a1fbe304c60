// The structure rules for `npx depcruise gateway/src` (graphs, ad-hoc queries). They are
// defined in scripts/structure/rules.ts, which `npm run check:structure` also uses; Node 24
// loads the .ts file directly.
export { configuration as default } from './scripts/structure/rules.ts';
