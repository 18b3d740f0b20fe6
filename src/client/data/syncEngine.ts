/** The sync engine lives in ./sync/ (push, pull, conflicts, triggers); this path keeps its importers working. */
export * from './sync';
