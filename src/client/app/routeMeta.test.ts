import { describe, expect, it } from 'vitest';
import {
  DESKTOP_NAV_LINKS,
  isOnboardingExempt,
  isTopLevel,
  NAV_LINKS,
  parentIdFromPath,
  showsAddButton,
  titleFor,
} from './routeMeta';

describe('route metadata', () => {
  it('titles each route and gives any other path the product name', () => {
    expect(titleFor('/')).toBe('Home');
    expect(titleFor('/completed')).toBe('Completed');
    expect(titleFor('/today')).toBe('Today');
    expect(titleFor('/upcoming')).toBe('Upcoming');
    expect(titleFor('/campaigns/12')).toBe('Campaign');
    expect(titleFor('/onboarding')).toBe('Welcome');
    expect(titleFor('/somewhere/else')).toBe('Outpost');
  });

  it('treats the spec list as top-level pages (account button, not Back)', () => {
    for (const p of ['/', '/queue', '/active', '/completed', '/my-list', '/notifications']) {
      expect(isTopLevel(p)).toBe(true);
    }
    expect(isTopLevel('/preferences')).toBe(false);
    expect(isTopLevel('/tasks/3')).toBe(false);
  });

  it('lets only /login, /onboarding and an invite link through before onboarding is done', () => {
    expect(isOnboardingExempt('/login')).toBe(true);
    expect(isOnboardingExempt('/onboarding')).toBe(true);
    expect(isOnboardingExempt('/invite/Q2hhbmdlIHRoZSB3b3JsZA')).toBe(true);
    expect(titleFor('/invite/Q2hhbmdlIHRoZSB3b3JsZA')).toBe('Invite');
    expect(isOnboardingExempt('/')).toBe(false);
    expect(isOnboardingExempt('/campaigns')).toBe(false);
  });

  it('puts the add button on item pages with the page item as parent', () => {
    expect(showsAddButton('/queue')).toBe(true);
    expect(showsAddButton('/preferences')).toBe(false);
    expect(showsAddButton('/notifications')).toBe(false);
    expect(parentIdFromPath('/campaigns/7')).toBe(7);
    expect(parentIdFromPath('/tasks/-3')).toBe(-3);
    expect(parentIdFromPath('/queue')).toBeNull();
  });

  it("lists the spec's nav links, Today, Upcoming, Calendar, then Campaigns on the desktop, and keeps the phone bar's five", () => {
    expect(DESKTOP_NAV_LINKS.map((l) => [l.to, l.label])).toEqual([
      ['/', 'Home'],
      ['/my-list', 'My List'],
      ['/queue', 'Queue'],
      ['/active', 'Active'],
      ['/completed', 'Completed'],
      ['/today', 'Today'],
      ['/upcoming', 'Upcoming'],
      ['/calendar', 'Calendar'],
      ['/campaigns', 'Campaigns'],
    ]);
    expect(NAV_LINKS.map((l) => l.short)).toEqual(['Home', 'My List', 'Queue', 'Active', 'Done']);
  });
});
