export function App() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <div className="flex items-center gap-3">
        <svg aria-hidden="true" viewBox="0 0 32 32" className="size-10">
          <rect width="32" height="32" rx="8" className="fill-indigo-600 dark:fill-indigo-500" />
          <path d="M16 6 7 24h18L16 6Zm0 6.5 4.6 9.5h-9.2L16 12.5Z" className="fill-white" />
        </svg>
        <h1 className="text-3xl font-semibold tracking-tight">Outpost</h1>
      </div>
      <p className="text-base text-zinc-600 dark:text-zinc-400">Offline-first campaigns, tasks and todos</p>
    </main>
  );
}
