import { Download, Timer } from 'lucide-react';
import { useMemo, useState } from 'react';
import { formatMinutes } from '../../shared/timeEntries';
import { type ReportFilters, type ReportSum, reportRowsOf, timeReport } from '../../shared/timeReport';
import { timeReportCsv } from '../../shared/timeReportCsv';
import { useSend, useSignedInUser, useToast } from '../app/door';
import { Button, Field, Input, inputClasses } from '../components/ui';
import { ListEmpty, ListLoading, PageColumn, PageHeader } from '../components/ui/PageParts';
import { downloadFile } from '../data/transfer/downloadFile';
import { useReportEntries } from './queries';

/** One of the report's tables: a sum a line, its share of the total as a bar. */
function SumTable({
  id,
  title,
  rows,
  total,
}: {
  id: string;
  title: string;
  rows: ReportSum[];
  total: number;
}) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 id={id} className="mb-3 text-sm font-semibold">
        {title}
      </h2>
      <table className="w-full text-sm">
        <thead className="sr-only">
          <tr>
            <th scope="col">{title.replace('By ', '')}</th>
            <th scope="col">Time</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} className="align-middle">
              <th scope="row" className="max-w-0 py-1.5 pr-3 text-left font-normal">
                <span className="block truncate">{row.label}</span>
                <span className="mt-1 block h-1 rounded-full bg-zinc-100 dark:bg-zinc-800" aria-hidden>
                  <span
                    className="block h-full rounded-full bg-emerald-500 dark:bg-emerald-400"
                    style={{ width: `${total > 0 ? Math.max(2, (row.minutes / total) * 100) : 0}%` }}
                  />
                </span>
              </th>
              <td className="w-24 py-1.5 text-right font-medium whitespace-nowrap tabular-nums">
                {formatMinutes(row.minutes)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A week's Monday (YYYY-MM-DD, UTC) as people read it: 'Nov 23' (with the year when not this one's). */
const weekLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString([], {
    month: 'short',
    day: 'numeric',
    ...(day.slice(0, 4) === String(new Date().getUTCFullYear()) ? {} : { year: 'numeric' }),
    timeZone: 'UTC',
  });

const selectClasses = inputClasses('w-full bg-white dark:bg-zinc-950');

/**
 * The time report (`/reports/time`, §5 'Time tracking'): the entries on this device (every one the
 * person sees, synced) summed by campaign, person and week under the filters, with the total, and a
 * CSV: the server's for a signed-in person, built here for a guest under the same injection rule.
 */
export default function TimeReportPage() {
  const entries = useReportEntries();
  const user = useSignedInUser();
  const send = useSend();
  const toast = useToast();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [campaign, setCampaign] = useState('');
  const [person, setPerson] = useState('');
  const filters: ReportFilters = {
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(campaign ? { campaignId: Number(campaign) } : {}),
    ...(person ? { userId: Number(person) } : {}),
  };
  // Cheap next to the read: summed on every render, so a running entry's minutes stay current.
  const report = entries ? timeReport(entries, filters, Date.now()) : null;
  const campaigns = useMemo(() => {
    const seen = new Map<number, string>();
    for (const e of entries ?? []) if (e.campaign) seen.set(e.campaign.id, e.campaign.title);
    return [...seen].sort((a, b) => a[1].localeCompare(b[1]));
  }, [entries]);
  const people = useMemo(() => {
    const seen = new Map<number, string>();
    for (const e of entries ?? []) seen.set(e.user_id, e.user_name);
    return [...seen].sort((a, b) => a[1].localeCompare(b[1]));
  }, [entries]);

  const exportCsv = async () => {
    try {
      const text = user
        ? await send('time.serverCsv', {
            ...(from ? { from } : {}),
            ...(to ? { to } : {}),
            ...(campaign && Number(campaign) > 0 ? { campaign_id: Number(campaign) } : {}),
            ...(person && Number(person) > 0 ? { user_id: Number(person) } : {}),
          })
        : timeReportCsv(reportRowsOf(entries ?? [], filters, Date.now()));
      downloadFile({ name: 'outpost-time.csv', mime: 'text/csv', text });
    } catch (error) {
      toast({
        title: 'Export failed',
        description: error instanceof Error ? error.message : 'The CSV could not be made.',
        variant: 'destructive',
      });
    }
  };

  return (
    <PageColumn>
      <PageHeader
        title="Time report"
        subtitle="Time tracked on the items you see, by campaign, person and week."
        actions={
          <Button
            variant="outline"
            onClick={() => void exportCsv()}
            disabled={!report || report.entries === 0}
          >
            <Download aria-hidden />
            Export CSV
          </Button>
        }
      />
      <form
        className="mb-5 grid grid-cols-2 gap-3 md:grid-cols-4"
        aria-label="Report filters"
        onSubmit={(e) => e.preventDefault()}
      >
        <Field label="From">
          {(p) => <Input {...p} type="date" value={from} onChange={(e) => setFrom(e.target.value)} />}
        </Field>
        <Field label="To">
          {(p) => <Input {...p} type="date" value={to} onChange={(e) => setTo(e.target.value)} />}
        </Field>
        <Field label="Campaign">
          {(p) => (
            <select
              {...p}
              className={selectClasses}
              value={campaign}
              onChange={(e) => setCampaign(e.target.value)}
            >
              <option value="">All campaigns</option>
              {campaigns.map(([id, title]) => (
                <option key={id} value={id}>
                  {title}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Person">
          {(p) => (
            <select
              {...p}
              className={selectClasses}
              value={person}
              onChange={(e) => setPerson(e.target.value)}
            >
              <option value="">Everyone</option>
              {people.map(([id, name]) => (
                <option key={id} value={id}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </form>
      {!report ? (
        <ListLoading label="Loading time" />
      ) : report.entries === 0 ? (
        <ListEmpty
          icon={<Timer />}
          title="No time tracked here"
          hint="Start a timer on a task or todo, or add time on its page."
        />
      ) : (
        <>
          <div
            className="mb-5 flex items-baseline gap-3 rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
            data-report-total
          >
            <span className="text-sm text-zinc-600 dark:text-zinc-400">Total</span>
            <span className="text-2xl font-semibold tabular-nums">{formatMinutes(report.total)}</span>
            <span className="text-sm text-zinc-500 dark:text-zinc-400">
              {report.entries} {report.entries === 1 ? 'entry' : 'entries'}
            </span>
          </div>
          <div className="grid gap-4 md:grid-cols-3">
            <SumTable id="by-campaign" title="By campaign" rows={report.byCampaign} total={report.total} />
            <SumTable id="by-person" title="By person" rows={report.byPerson} total={report.total} />
            <SumTable
              id="by-week"
              title="By week"
              rows={report.byWeek.map((w) => ({ ...w, label: `Week of ${weekLabel(w.key)}` }))}
              total={report.total}
            />
          </div>
        </>
      )}
    </PageColumn>
  );
}
