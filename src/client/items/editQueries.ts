/** Reads for editing and moving items, through the one door (data/live.ts). */
import { type LiveQuery, useLive } from '../data/live';
import type { MoveCandidate } from './editing';

const NONE: MoveCandidate[] = [];

const moveCandidatesQuery: LiveQuery<null, MoveCandidate[]> = async (reads) => {
  const [campaigns, tasks] = await Promise.all([reads.homeItems('campaign'), reads.homeItems('task')]);
  return [...campaigns, ...tasks].map((i) => ({
    id: i.id,
    type: i.type,
    title: i.title,
    parent_id: i.parent_id,
  }));
};

/** Every local campaign and task (the only possible parents), live; [] while loading. */
export function useMoveCandidates(): MoveCandidate[] {
  return useLive(moveCandidatesQuery, null) ?? NONE;
}
