/**
 * The quick-add reader's second step. The first screen's quick-add card imports this one-line module,
 * which then imports the reader: Vite lists every chunk a dynamic import needs (its preload list) in
 * the importing chunk, and the reader's list (chrono-node, the parser, the chips and what they use)
 * belongs in this small chunk, fetched on the title's first focus, not in the first screen's.
 */
export const loadQuickAddParts = () => import('./QuickAddParts');
