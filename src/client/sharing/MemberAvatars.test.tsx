// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CampaignMember } from '../data/commands/sharing';
import { AvatarStack } from './MemberAvatars';
import { isSharedCampaign, roleOf } from './queries';

afterEach(cleanup);

const member = (id: number, name: string, role: CampaignMember['role'] = 'editor'): CampaignMember => ({
  user: { id, name, phone: null },
  role,
  added_at: null,
});

describe('member avatars', () => {
  it('stack the first four with +N for the rest, read as one phrase', () => {
    const names = ['Ada Owner', 'Bo Lee', 'Cy Park', 'Di Moss', 'Ed Fry', 'Flo Kay'];
    render(<AvatarStack members={names.map((n, i) => member(i + 1, n, i === 0 ? 'owner' : 'editor'))} />);
    const stack = screen.getByRole('img', { name: `Shared with 6 people: ${names.join(', ')}` });
    expect(stack.textContent).toBe('AOBLCPDM+2');
  });

  it('call a campaign shared when the caller is a member or it has more than its owner', () => {
    expect(isSharedCampaign({ id: 1, my_role: 'owner', members_count: 1 })).toBe(false);
    expect(isSharedCampaign({ id: 1, my_role: 'owner', members_count: 3 })).toBe(true);
    expect(isSharedCampaign({ id: 1, my_role: 'viewer' })).toBe(true);
    expect(isSharedCampaign({ id: 1 })).toBe(false);
    expect(roleOf({ id: 1 })).toBeNull();
  });
});
