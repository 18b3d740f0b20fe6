/**
 * The quick-add reader as a form holds it (ARCHITECTURE §5 'Quick add reads what you mean'): its
 * module, loaded on the title's first focus or keystroke, the reading it gives, and a submit that
 * waits for that reading. A person who types and presses Enter before the module has arrived (a slow
 * network, a busy phone) gets the title read, as they would a moment later: 'Stretch every day at
 * 7pm' is saved as 'Stretch', daily, not as the words typed. Only a module that cannot load (offline
 * before it was cached) leaves the title as typed.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { LazyModule } from '../components/ui/lazyMenu';
import type { LiveReading } from './QuickAddParts';

type PartsModule = typeof import('./QuickAddParts');

export interface TitleReader {
  /** The module once it has arrived: the form renders its TitleReading. */
  parts: PartsModule | null;
  /** The reading of the title (null while the module is loading, or for a blank title). */
  reading: LiveReading | null;
  /** TitleReading's onReading. */
  onReading: (reading: LiveReading | null) => void;
  /** Starts loading the module (the title's focus and keystrokes). */
  load: () => void;
  /** A submit waits for the reading: the form shows itself busy. */
  waiting: boolean;
  /**
   * Whether the submit must wait: the title is not read yet (the module is on its way, or a #name's
   * campaigns are being looked up). The form's submit then returns, and runs again once it is read,
   * or once the module has failed to load (the title is then saved as typed).
   */
  mustWait: () => boolean;
}

/**
 * The reader for a form whose title is `text`, from `module` (the form's lazy handle on QuickAddParts);
 * `submit` is the form's submit as this render has it, which a waiting submit runs again.
 */
export function useTitleReader(
  module: LazyModule<PartsModule>,
  text: string,
  submit: () => void,
): TitleReader {
  const [arrived, setParts] = useState(module.current);
  // Loaded by another form since this one mounted (the handle is shared): it is here already.
  const parts = arrived ?? module.current();
  const [reading, setReading] = useState<LiveReading | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [failed, setFailed] = useState(false);
  const latestSubmit = useRef(submit);
  // The render's own submit: its closure holds this render's reading.
  useLayoutEffect(() => {
    latestSubmit.current = submit;
  });

  const load = () => {
    if (parts) return;
    setFailed(false);
    module.load().then(setParts, (error: unknown) => {
      console.warn(error);
      setFailed(true);
    });
  };

  const blank = text.trim() === '';
  const read = parts !== null && reading?.settled === true;

  const mustWait = () => {
    if (blank || read || failed) return false;
    setWaiting(true);
    load();
    return true;
  };

  useEffect(() => {
    if (!waiting || !(blank || read || failed)) return;
    setWaiting(false);
    // Emptied while it waited: nothing is left to add.
    if (!blank) latestSubmit.current();
  }, [waiting, blank, read, failed]);

  return { parts, reading, onReading: setReading, load, waiting, mustWait };
}
