/**
 * ' via Nightly build' after an entry's sentence: the personal access token the change was made
 * through, by the name its owner gave it (the campaign's activity and an item's history).
 */
export function ViaToken({ name }: { name: string }) {
  return (
    <>
      {' via '}
      <span className="font-medium [overflow-wrap:anywhere] text-zinc-700 dark:text-zinc-300">{name}</span>
    </>
  );
}
