/**
 * `npm run bench -- board-drag [--runs N] [--client-dir DIR] [--trace FILE] [--profile [lift|moves|drop]]`: issue 33's budget for dragging on the
 * board, no frame over 16 ms while a card is dragged in a column of 500, in headless Chromium on the
 * built app under a Chromium trace (Browser.startTracing). A guest profile is seeded as list-screens
 * seeds (bench/listScreens.ts): a campaign whose Queue holds 500 todos in manual order. Each run opens
 * the board, lifts a card by its handle with the mouse and moves it 480 px down the column in 60 steps
 * of one frame each, then drops it; the trace covers the drag alone.
 *
 * The figures, per run then their median and spread: the most work the page's renderer main thread
 * did in one animation frame (its tasks' thread time inside the trace's AnimationFrame slices, from a
 * frame's first task to its render), which the budget holds to 16 ms, and per phase (lift, moves,
 * drop). Beside it the frames' longest span (an AnimationFrame lasts until the next vsync's render,
 * so a frame with 1 ms of work that began just after a render spans 17–19 ms: the span says when
 * input arrived, not how long the app took), the frames the compositor dropped, the main thread's
 * longest task in wall time and in thread time the main thread's longest task in wall time and in thread time
 * (CPU: on two cores shared with other work, wall time also counts the time the thread waited to be
 * scheduled), and the longest gap between two requestAnimationFrame callbacks as the page saw them.
 * The page marks the end of the lift and the start of the drop (performance.mark), so the thread time
 * is also given per phase: the lift's longest task, the moves' longest task and their mean CPU a
 * step, and the drop's longest task (the drop's write and the board read again included).
 *
 * `--profile` samples the renderer's JavaScript too (V8's CPU profiler in the trace) and prints, for
 * the longest task of the lift (or of the phase named after it: moves, drop), where its thread time went: the trace's own slices (style, layout, script)
 * and the functions with the most samples, self and with what they call (build the client unminified,
 * `vite build --minify false --outDir DIR/client`, and pass --client-dir, for readable names).
 */

import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { chromium, type Page } from 'playwright-core';
import { chromiumArgs, chromiumAvailable, chromiumPath } from '../scripts/lib/chromium';
import { keysAfter } from '../src/shared/sortKey';
import { type LocalItem, listKeysOf, topFlagsFromScratch } from './lib/appData';
import { ONBOARDED_STORAGE, startAppServer } from './lib/appServer';
import { guestRow } from './lib/guestSeed';
import { check, info, skip } from './lib/report';
import { median } from './lib/stats';
import { seed } from './listScreens';

const CARDS = 500;
const FRAME_MS = 16;
const STEPS = 60;
const DISTANCE_PX = 480;

/** A campaign (id 1) whose Queue holds CARDS todos, keyed in manual order. */
function queueOf500(): LocalItem[] {
  const rows = [guestRow(1, 'campaign', null)];
  const keys = keysAfter(null, CARDS);
  for (let i = 0; i < CARDS; i++) rows.push(guestRow(i + 2, 'todo', 1, { sort_key: keys[i]! }));
  const flags = topFlagsFromScratch(rows);
  return rows.map((r) => ({ ...r, ...flags.get(r.id), ...listKeysOf(r) }));
}

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  id?: string;
  id2?: unknown;
  args?: { name?: string; data?: ProfileData };
}

/** V8's CPU profile as the trace carries it (Profile, then ProfileChunks). */
interface ProfileData {
  startTime?: number;
  cpuProfile?: {
    nodes?: {
      id: number;
      parent?: number;
      callFrame: { functionName: string; url: string; lineNumber: number };
    }[];
    samples?: number[];
  };
  timeDeltas?: number[];
}

interface Frames {
  /**
   * The most work in one animation frame: the main thread's tasks (thread time) inside a trace
   * AnimationFrame, from its first task to its render, ms. The frame's own span is not the measure:
   * it runs on to the next vsync, so a frame whose one task took 1 ms spans 17 to 19 ms when that
   * task came just after the last render (the trace shows its Render starting ~18 ms in, no script).
   */
  frame: number;
  /** The longest AnimationFrame span, waiting for vsync included, ms. */
  span: number;
  /** Frames the compositor reports dropped (PipelineReporter STATE_DROPPED) from the press on. */
  dropped: number;
  frames: number;
  /** The longest frame begun in each phase (split at the page's marks), ms. */
  liftFrame: number;
  moveFrame: number;
  dropFrame: number;
  /** The renderer main thread's longest task (ThreadControllerImpl::RunTask), wall and thread time, ms. */
  wall: number;
  cpu: number;
  /** Thread time per phase (split at the page's marks): the longest task of each, the moves' sum. */
  liftCpu: number;
  moveCpu: number;
  moveSum: number;
  dropCpu: number;
}

type Phase = 'lift' | 'moves' | 'drop';

/** Marked just before the mouse button goes down: the lift is what runs from here to LIFTED. */
const DOWN = 'board-drag:down';
const LIFTED = 'board-drag:lifted';
const DROPPING = 'board-drag:dropping';

/** The frames and tasks of the page's renderer main thread (the busiest one) in a trace. */
function framesOf(trace: Buffer): Frames {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const { tasks, pid } = mainTasks(events);
  const frames = animationFrames(events, pid).map(({ from, to }) => ({
    at: from,
    ms: (to - from) / 1000,
    work: workIn(tasks, from, to),
  }));
  const markAt = (name: string) => events.find((e) => e.name === name && e.pid === pid)?.ts ?? Number.NaN;
  const down = markAt(DOWN);
  const lifted = markAt(LIFTED);
  const dropping = markAt(DROPPING);
  const cpuOf = (list: TraceEvent[]) => list.map((e) => (e.tdur ?? 0) / 1000);
  // From the button's press (the trace's first tasks are its own start, and the profiler's with --profile).
  const lift = cpuOf(tasks.filter((e) => e.ts >= down && e.ts < lifted));
  const moves = cpuOf(tasks.filter((e) => e.ts >= lifted && e.ts < dropping));
  const drop = cpuOf(tasks.filter((e) => e.ts >= dropping));
  const longest = (from: number, to: number) =>
    Math.max(0, ...frames.filter((f) => f.at >= from && f.at < to).map((f) => f.work));
  // Frames the renderer's compositor dropped (its own verdict), from the press on.
  const dropped = events.filter(
    (e) =>
      e.name === 'PipelineReporter' &&
      e.ph === 'b' &&
      e.pid === pid &&
      e.ts >= down &&
      (e.args as { frame_reporter?: { state?: string; frame_type?: string } } | undefined)?.frame_reporter
        ?.state === 'STATE_DROPPED' &&
      (e.args as { frame_reporter?: { frame_type?: string } }).frame_reporter?.frame_type !== 'FORKED',
  ).length;
  return {
    // From the press on: before it the trace holds its own start (and the profiler's, with --profile).
    frame: longest(down, Number.POSITIVE_INFINITY),
    span: Math.max(0, ...frames.map((f) => f.ms)),
    dropped,
    liftFrame: longest(down, lifted),
    moveFrame: longest(lifted, dropping),
    dropFrame: longest(dropping, Number.POSITIVE_INFINITY),
    frames: frames.length,
    wall: Math.max(0, ...tasks.map((e) => (e.dur ?? 0) / 1000)),
    cpu: Math.max(0, ...cpuOf(tasks)),
    liftCpu: Math.max(0, ...lift),
    moveCpu: Math.max(0, ...moves),
    moveSum: moves.reduce((a, b) => a + b, 0),
    dropCpu: Math.max(0, ...drop),
  };
}

/**
 * The thread time of `tasks` (sorted by start) inside [from, to], ms: a task partly inside counts in
 * proportion. Thread time, not wall: on two cores shared with other work the thread also waits to be
 * scheduled, and that wait is the machine's, not the app's.
 */
function workIn(tasks: readonly TraceEvent[], from: number, to: number): number {
  let sum = 0;
  for (const t of tasks) {
    if (t.ts >= to) break;
    const dur = t.dur ?? 0;
    const end = t.ts + dur;
    if (end <= from || dur <= 0) continue;
    sum += ((t.tdur ?? 0) * (Math.min(end, to) - Math.max(t.ts, from))) / dur;
  }
  return sum / 1000;
}

/** The AnimationFrame slices of process `pid` in a parsed trace, in order, as begin and end timestamps (µs). */
export function animationFrames(events: TraceEvent[], pid: number): { from: number; to: number }[] {
  // An async slice: a begin and an end with the same id.
  const begun = new Map<string, number>();
  const frames: { from: number; to: number }[] = [];
  for (const e of events
    .filter((x) => x.name === 'AnimationFrame' && x.pid === pid)
    .sort((a, b) => a.ts - b.ts)) {
    const id = JSON.stringify(e.id2 ?? e.id);
    if (e.ph === 'b') begun.set(id, e.ts);
    else if (e.ph === 'e' && begun.has(id)) {
      frames.push({ from: begun.get(id)!, to: e.ts });
      begun.delete(id);
    }
  }
  return frames;
}

/** The renderer main thread's tasks (the busiest one's) in a parsed trace, and its process. */
export function mainTasks(events: TraceEvent[]): { tasks: TraceEvent[]; pid: number; tid: number } {
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && mains.has(key))
      byThread.set(key, [...(byThread.get(key) ?? []), e]);
  }
  const busiest = [...byThread].sort((a, b) => b[1].length - a[1].length)[0];
  const [pid, tid] = busiest ? busiest[0].split(':').map(Number) : [-1, -1];
  return { tasks: (busiest?.[1] ?? []).sort((a, b) => a.ts - b.ts), pid: pid ?? -1, tid: tid ?? -1 };
}

/**
 * Where a phase's longest task spent its time (--profile): the trace slices inside it by name
 * (wall ms, nested ones counted in their parents too) and the sampled functions, self and total.
 */
function phaseProfile(trace: Buffer, phase: Phase): string {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const { tasks, pid, tid } = mainTasks(events);
  const markAt = (name: string) => events.find((e) => e.name === name && e.pid === pid)?.ts ?? Number.NaN;
  const bounds: Record<Phase, [number, number]> = {
    lift: [markAt(DOWN), markAt(LIFTED)],
    moves: [markAt(LIFTED), markAt(DROPPING)],
    drop: [markAt(DROPPING), Number.POSITIVE_INFINITY],
  };
  const [start, end] = bounds[phase];
  const task = tasks
    .filter((e) => e.ts >= start && e.ts < end)
    .sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))[0];
  if (!task) return `  (no task in the ${phase})`;
  const from = task.ts;
  const to = task.ts + (task.dur ?? 0);
  const lines = [
    `  the ${phase}' longest task: ${((task.tdur ?? 0) / 1000).toFixed(1)} ms thread time, ${((task.dur ?? 0) / 1000).toFixed(1)} ms wall`,
  ];
  const slices = new Map<string, number>();
  for (const e of events) {
    if (e === task || e.ph !== 'X' || e.pid !== pid || e.tid !== tid || e.ts < from || e.ts >= to) continue;
    slices.set(e.name, (slices.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `    ${v.toFixed(1).padStart(6)} ms  ${k}`);
  lines.push('  slices inside it (wall):', ...top(slices, 14));
  // The samples of the renderer's main thread within the task.
  const nodes = new Map<number, { name: string; parent?: number }>();
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  // The profile of the main thread: its Profile event is on that thread, its chunks (same id) on
  // the sampler's.
  const profileId = events.find((e) => e.name === 'Profile' && e.pid === pid && e.tid === tid)?.id;
  const chunks = events.filter(
    (e) => e.pid === pid && e.id === profileId && (e.name === 'Profile' || e.name === 'ProfileChunk'),
  );
  let clock = 0;
  let last = 0;
  for (const e of chunks.sort((a, b) => a.ts - b.ts)) {
    const data = e.args?.data;
    if (e.name === 'Profile') {
      clock = data?.startTime ?? e.ts;
      last = clock;
      continue;
    }
    for (const n of data?.cpuProfile?.nodes ?? []) {
      const { functionName, url, lineNumber } = n.callFrame;
      const file = url?.split('/').pop() ?? '';
      const where = file ? ` ${file}:${(lineNumber ?? 0) + 1}` : '';
      nodes.set(n.id, { name: `${functionName || '(anonymous)'}${where}`, parent: n.parent });
    }
    const samples = data?.cpuProfile?.samples ?? [];
    const deltas = data?.timeDeltas ?? [];
    samples.forEach((id, i) => {
      clock += deltas[i] ?? 0;
      const ms = (clock - last) / 1000;
      last = clock;
      if (clock < from || clock >= to || ms <= 0 || ms > 5) return;
      const node = nodes.get(id);
      if (!node) return;
      self.set(node.name, (self.get(node.name) ?? 0) + ms);
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = nodes.get(at)?.parent) {
        const name = nodes.get(at)?.name;
        if (!name || seen.has(name)) continue;
        seen.add(name);
        total.set(name, (total.get(name) ?? 0) + ms);
      }
    });
  }
  if (self.size > 0)
    lines.push(
      '  functions, self:',
      ...top(self, 20),
      '  functions, total:',
      ...top(total, Number(process.env.TOP ?? 30)),
    );
  return lines.join('\n');
}

/** One drag of the sixth card down the column; answers the trace and the page's longest frame gap. */
async function drag(page: Page, profile = false): Promise<{ trace: Buffer; rafGap: number; moved: boolean }> {
  const browser = page.context().browser()!;
  const card = page.locator('[data-column="pending"] [data-card-id]').nth(5);
  const title = await card.locator('a, span.truncate').first().textContent();
  const handle = card.getByRole('button', { name: /^Move/ });
  await handle.scrollIntoViewIfNeeded();
  const box = (await handle.boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  // The page's own view of its frames: every requestAnimationFrame while the card is held.
  // A string: tsx names the arrow functions of a function passed in, with a helper the page lacks.
  await page.evaluate(`(() => {
    window.__gaps = [];
    window.__rafOn = true;
    let last = performance.now();
    const tick = (now) => {
      window.__gaps.push(now - last);
      last = now;
      if (window.__rafOn) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  await browser.startTracing(page, {
    categories: [
      'toplevel',
      'devtools.timeline',
      'disabled-by-default-devtools.timeline.frame',
      'blink.user_timing',
      ...(profile ? ['disabled-by-default-v8.cpu_profiler'] : []),
    ],
  });
  await page.evaluate(`performance.mark('${DOWN}')`);
  await page.mouse.down();
  // Past the sensor's 4 px activation distance (the lift), then down the column a frame at a time.
  await page.mouse.move(x, y + 8);
  await page.locator('[data-card-id].opacity-40').waitFor();
  await page.evaluate(`performance.mark('${LIFTED}')`);
  for (let i = 1; i <= STEPS; i++) {
    await page.mouse.move(x, y + 8 + (DISTANCE_PX * i) / STEPS);
    await page.waitForTimeout(FRAME_MS);
  }
  await page.evaluate(`performance.mark('${DROPPING}')`);
  await page.mouse.up();
  await page.waitForTimeout(200);
  const trace = await browser.stopTracing();
  const gaps = await page.evaluate(() => {
    const w = window as unknown as { __gaps: number[]; __rafOn: boolean };
    w.__rafOn = false;
    return w.__gaps;
  });
  // The card left its place: the drag was a drag, not a click. The move's undo toast names the card's
  // new place once it is written (the card itself may be past the column's rendered window, the page
  // having scrolled under the drag). The write takes a while on a loaded machine: up to 10 s.
  const moved = await page
    .getByText(new RegExp(`“${title}” is now (\\d+) of ${CARDS}`))
    .first()
    .textContent({ timeout: 10_000 })
    .then(
      (text) => Number(/is now (\d+) of/.exec(text ?? '')?.[1]) > 6,
      () => false,
    );
  return { trace, rafGap: Math.max(...gaps.slice(1)), moved };
}

export async function run(args: string[] = []): Promise<void> {
  const at = args.indexOf('--runs');
  const runs = at >= 0 ? Number(args[at + 1]) : 3;
  const dirAt = args.indexOf('--client-dir');
  const clientDir = dirAt >= 0 ? args[dirAt + 1] : undefined;
  // --trace FILE: the first run's trace, for DevTools' Performance panel.
  const traceAt = args.indexOf('--trace');
  const traceFile = traceAt >= 0 ? args[traceAt + 1] : undefined;
  // --profile [lift|moves|drop]: where that phase's longest task went (the lift's by default).
  const profileAt = args.indexOf('--profile');
  const profile = profileAt >= 0;
  const named = args[profileAt + 1];
  const profilePhase: Phase = named === 'moves' || named === 'drop' ? named : 'lift';
  const subject = `board drag in a column of ${CARDS}`;
  if (!chromiumAvailable()) {
    skip(subject, `no Chromium at ${chromiumPath}`);
    return;
  }
  const load0 = loadavg();
  const server = await startAppServer(120_000, clientDir ? { clientDir } : {});
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const frame: number[] = [];
  const span: number[] = [];
  const dropped: number[] = [];
  const wall: number[] = [];
  const cpu: number[] = [];
  const raf: number[] = [];
  const phaseFrames = { lift: [] as number[], move: [] as number[], drop: [] as number[] };
  const phases = { lift: [] as number[], move: [] as number[], step: [] as number[], drop: [] as number[] };
  try {
    const context = await browser.newContext({
      serviceWorkers: 'block',
      viewport: { width: 1280, height: 900 },
    });
    await context.addInitScript(
      ([key, value]) => localStorage.setItem(key as string, value as string),
      [ONBOARDED_STORAGE.key, ONBOARDED_STORAGE.value],
    );
    const stored = await seed(context, server.url, queueOf500());
    info(subject, 'seeded', `${stored} items`);
    for (let r = 0; r < runs; r++) {
      const page = await context.newPage();
      await page.goto(`${server.url}/campaigns/1?tab=board`);
      await page.locator('[data-column="pending"] [data-card-id]').first().waitFor();
      const counted = await page.locator('[data-column="pending"] h3 > span:nth-child(2)').textContent();
      if (Number.parseInt(counted ?? '', 10) !== CARDS)
        throw new Error(`Queue counts ${counted}, not ${CARDS}`);
      await page.waitForTimeout(500);
      const d = await drag(page, profile);
      if (!d.moved) throw new Error('the card did not move: the drag did not happen');
      if (traceFile && r === 0) await writeFile(traceFile, d.trace);
      const t = framesOf(d.trace);
      frame.push(t.frame);
      span.push(t.span);
      dropped.push(t.dropped);
      wall.push(t.wall);
      cpu.push(t.cpu);
      raf.push(d.rafGap);
      phases.lift.push(t.liftCpu);
      phases.move.push(t.moveCpu);
      phases.step.push(t.moveSum / STEPS);
      phases.drop.push(t.dropCpu);
      phaseFrames.lift.push(t.liftFrame);
      phaseFrames.move.push(t.moveFrame);
      phaseFrames.drop.push(t.dropFrame);
      console.log(
        `  run ${r + 1}: most work in a frame ${t.frame.toFixed(1)} ms of ${t.frames} frames (lift ${t.liftFrame.toFixed(1)}, moves ${t.moveFrame.toFixed(1)}, drop ${t.dropFrame.toFixed(1)}), longest span ${t.span.toFixed(1)} ms, ${t.dropped} dropped; longest main-thread task ${t.wall.toFixed(1)} ms wall, ${t.cpu.toFixed(1)} ms thread time; longest rAF gap ${d.rafGap.toFixed(1)} ms; thread time: lift ${t.liftCpu.toFixed(1)} ms, moves' longest task ${t.moveCpu.toFixed(1)} ms and ${(t.moveSum / STEPS).toFixed(2)} ms a step, drop ${t.dropCpu.toFixed(1)} ms`,
      );
      if (profile) console.log(phaseProfile(d.trace, profilePhase));
      await page.close();
    }
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
  const spread = (v: number[]) =>
    `${median(v).toFixed(1)} ms (${Math.min(...v).toFixed(1)}–${Math.max(...v).toFixed(1)})`;
  info(subject, `longest task, wall (${runs} runs)`, spread(wall));
  info(subject, `longest task, CPU (${runs} runs)`, spread(cpu));
  info(subject, `longest rAF gap (${runs} runs)`, spread(raf));
  info(subject, `longest frame span, vsync wait included (${runs} runs)`, spread(span));
  info(
    subject,
    `frames dropped (${runs} runs)`,
    `${median(dropped)} (${Math.min(...dropped)}–${Math.max(...dropped)})`,
  );
  info(subject, `lift, longest frame (${runs} runs)`, spread(phaseFrames.lift));
  info(subject, `moves, longest frame (${runs} runs)`, spread(phaseFrames.move));
  info(subject, `drop, longest frame (${runs} runs)`, spread(phaseFrames.drop));
  info(subject, `lift, longest task CPU (${runs} runs)`, spread(phases.lift));
  info(subject, `moves, longest task CPU (${runs} runs)`, spread(phases.move));
  info(subject, `moves, CPU a step (${runs} runs)`, spread(phases.step));
  info(subject, `drop, longest task CPU (${runs} runs)`, spread(phases.drop));
  check({
    subject,
    metric: `most work in a frame (${runs} runs)`,
    value: spread(frame),
    budget: `≤ ${FRAME_MS} ms`,
    ok: median(frame) <= FRAME_MS,
  });
  const load1 = loadavg();
  console.log(
    `load average before ${load0.map((l) => l.toFixed(2)).join(' ')}, after ${load1.map((l) => l.toFixed(2)).join(' ')}`,
  );
}
