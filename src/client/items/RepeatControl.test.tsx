// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import RepeatControl from './RepeatControl';

beforeAll(() => {
  // jsdom lacks what Radix Select calls on open.
  Element.prototype.scrollIntoView ??= () => {};
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
});
afterEach(cleanup);

function Harness({ initial = null, log }: { initial?: string | null; log: (string | null)[] }) {
  const [value, setValue] = useState<string | null>(initial);
  return (
    <>
      <label htmlFor="repeat">Repeat</label>
      <RepeatControl
        id="repeat"
        value={value}
        due="2031-03-06"
        onChange={(rule) => {
          log.push(rule);
          setValue(rule);
        }}
      />
    </>
  );
}

async function choose(name: string) {
  const trigger = screen.getByRole('combobox', { name: 'Repeat' });
  await act(async () => {
    trigger.focus();
    fireEvent.keyDown(trigger, { key: 'Enter' });
  });
  const option = await screen.findByRole('option', { name });
  await act(async () => {
    fireEvent.keyDown(option, { key: 'Enter' });
  });
}

describe('Repeat control', () => {
  it('offers the presets by keyboard, Weekly and Monthly on the due date’s weekday and day', async () => {
    const log: (string | null)[] = [];
    render(<Harness log={log} />);
    expect(screen.getByRole('combobox', { name: 'Repeat' }).textContent).toContain('Does not repeat');
    await choose('Weekly on Thursday');
    await choose('Monthly on the 6th');
    await choose('Weekdays (Mon–Fri)');
    await choose('Does not repeat');
    expect(log).toEqual([
      'FREQ=WEEKLY;BYDAY=TH',
      'FREQ=MONTHLY;BYMONTHDAY=6',
      'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
      null,
    ]);
  });

  it('Custom: every N days, weeks on chosen weekdays or months, each field labelled', async () => {
    const log: (string | null)[] = [];
    render(<Harness log={log} />);
    await choose('Custom…');
    expect(log.at(-1)).toBe('FREQ=WEEKLY;BYDAY=TH');
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Every' }), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Monday' }));
    expect(log.at(-1)).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH');
    expect(screen.getByRole('button', { name: 'Monday' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.change(screen.getByRole('combobox', { name: 'Unit' }), { target: { value: 'DAILY' } });
    expect(log.at(-1)).toBe('FREQ=DAILY;INTERVAL=2');
    expect(screen.queryByRole('button', { name: 'Monday' })).toBeNull();
  });

  it('shows a stored custom rule as Custom with its fields', () => {
    render(<Harness initial="FREQ=MONTHLY;INTERVAL=3" log={[]} />);
    expect(screen.getByRole('combobox', { name: 'Repeat' }).textContent).toContain('Custom');
    expect((screen.getByRole('spinbutton', { name: 'Every' }) as HTMLInputElement).value).toBe('3');
  });
});
