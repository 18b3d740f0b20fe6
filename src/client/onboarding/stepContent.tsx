import {
  CloudOff,
  FolderKanban,
  Inbox,
  type LucideIcon,
  Rocket,
  Smartphone,
  Sparkles,
  Users,
} from 'lucide-react';
import type { ReactNode } from 'react';
import type { StepId } from './steps';

export interface StepCopy {
  icon: LucideIcon;
  title: string;
  body: ReactNode;
  points?: readonly string[];
}

/** The words and pictures of the informational steps (the input steps render their own). */
export const STEP_COPY: Partial<Record<StepId, StepCopy>> = {
  welcome: {
    icon: Sparkles,
    title: 'Welcome to Outpost',
    body: 'A calm place for big goals and the small steps that get them done. Everything works on this device, even without a connection.',
  },
  account: {
    icon: Users,
    title: 'Use Outpost with an account?',
    body: 'Sign in with your phone number to sync across devices and work with others. You can also start right away and sign in later.',
  },
  contacts: {
    icon: Users,
    title: 'Find people you know',
    body: 'Import your contacts to see who already uses Outpost, so you can assign work to them. Only phone numbers are sent.',
  },
  'my-work': {
    icon: Inbox,
    title: 'Your work at a glance',
    body: 'Home shows everything; each item moves from your Queue to Active to Done as you work on it.',
    points: ['Queue: things waiting to be started', 'Active: what you are working on now', 'Done: your wins'],
  },
  tasks: {
    icon: FolderKanban,
    title: 'Campaigns, tasks and todos',
    body: 'A campaign is a big goal. Break it into tasks, and tasks into todos. Progress rolls up as you tick things off.',
    points: ['Campaign: the big goal', 'Task: a piece of a campaign', 'Todo: the smallest action'],
  },
  offline: {
    icon: CloudOff,
    title: 'Works offline',
    body: 'Everything you create is saved on this device first. No account, no connection, no problem.',
  },
  collaboration: {
    icon: Users,
    title: 'Work together',
    body: 'Assign tasks and todos to people you know. Changes sync across your devices, and anything made offline goes up when you reconnect.',
  },
  mobile: {
    icon: Smartphone,
    title: 'Made for your phone',
    body: 'Add Outpost to your home screen. Use the bottom bar to move around and the + button to add anything from anywhere.',
  },
};

export const FINISH_ICON: LucideIcon = Rocket;
