import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml, headerText, renderDigestMail, renderNotificationMail } from './render';

describe('mail rendering', () => {
  it('never lets a line break, NUL or other control into a header line, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        const line = headerText(text);
        const controls = [...line].filter((c) => {
          const code = c.codePointAt(0) ?? 0;
          return code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029;
        });
        expect(controls).toEqual([]);
        expect(line.length).toBeLessThanOrEqual(200);
      }),
    );
  });

  it('escapes titles and names in the HTML, so a title cannot add markup or a link', () => {
    const title = '<img src=x onerror=alert(1)> & "quoted" \'single\'';
    const mail = renderNotificationMail({
      text: `Alex <b>x</b> assigned you task “${title}”`,
      item: { title, type: 'task', breadcrumb: ['<script>alert(1)</script>'] },
      url: 'https://outpost.example.com/tasks/1?a="b"',
      reason: 'You get this because ‘Assigned to me’ is on.',
      preferencesUrl: 'https://outpost.example.com/preferences#email',
      canReply: false,
    });
    expect(mail.html).not.toContain('<img');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>x</b>');
    expect(mail.html).toContain(escapeHtml(title));
    expect(mail.html).toContain('href="https://outpost.example.com/tasks/1?a=&quot;b&quot;"');
    expect(mail.text).toContain(title);
  });

  it('groups the digest as the Today page does and says how late each overdue item is', () => {
    const item = (title: string, due: string) => ({
      title,
      type: 'task' as const,
      url: `https://o.example/tasks/${title}`,
      due_date: due,
      priority: 4,
      breadcrumb: [],
    });
    const mail = renderDigestMail({
      today: '2026-12-02',
      dayLabel: 'Wednesday 2 December',
      overdue: [item('Old', '2026-11-30'), item('Older', '2026-11-01')],
      dueToday: [item('Now', '2026-12-02')],
      more: 3,
      todayUrl: 'https://o.example/today',
      unsubscribeUrl: 'https://o.example/api/email/unsubscribe?token=1.x',
      preferencesUrl: 'https://o.example/preferences#email',
    });
    expect(mail.subject).toBe('Your day: 2 overdue, 1 due today');
    expect(mail.text).toMatch(
      /OVERDUE \(2\)\n- Old \(2 days overdue\)[\s\S]*- Older \(31 days overdue\)[\s\S]*TODAY \(1\)\n- Now\n/,
    );
    expect(mail.text).toContain('And 3 more on your Today page.');
    expect(mail.html).toContain('Stop the daily digest');
    // An item with no priority and no parent gets no empty meta line.
    expect(mail.html).not.toMatch(/<div[^>]*>\s*<\/div>/);
  });
});
