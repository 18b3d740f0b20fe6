import { LayoutTemplate, Pencil, Trash2 } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import type { ItemType } from '../../shared/item';
import { type Template, type TemplateKind, treeCounts } from '../../shared/templates';
import { useDoor, useToast } from '../app/door';
import {
  Button,
  Dialog,
  DialogContent,
  DialogFooter,
  Field,
  Input,
  RadioGroup,
  RadioOption,
} from '../components/ui';
import { localToday } from './itemPayload';
import { undoAction } from './mutations';
import { useViewer } from './queries';

/** The templates as the list last came (the server's, or the device's copy offline); undefined while it loads. */
function useTemplates(open: boolean) {
  const { send } = useDoor();
  const [list, setList] = useState<Template[] | undefined>(undefined);
  const changed = (next: Template | { removed: number }) =>
    setList((now) =>
      'removed' in next
        ? now?.filter((t) => t.id !== next.removed)
        : now?.map((t) => (t.id === next.id ? next : t)),
    );
  useEffect(() => {
    if (!open) return;
    let live = true;
    // The device's copy at once, then the server's when it answers.
    void send('templates.cached').then((kept) => {
      if (live) setList((now) => now ?? (kept.length > 0 ? kept : undefined));
    });
    send('templates.list').then(
      (got) => live && setList(got.templates),
      () => live && setList((now) => now ?? []),
    );
    return () => {
      live = false;
    };
  }, [open, send]);
  return { list, changed };
}

/**
 * The chosen template's own actions: rename it or delete it, for whoever may change it (its creator,
 * or the owner and editors of its campaign: the server decides and says why not). Both need a connection.
 */
function TemplateActions({
  template,
  onChanged,
}: {
  template: Template;
  onChanged: (next: Template | { removed: number }) => void;
}) {
  const { send } = useDoor();
  const { online } = useViewer();
  const [mode, setMode] = useState<'idle' | 'rename' | 'delete'>('idle');
  const [name, setName] = useState(template.name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
      setMode('idle');
    } catch (caught) {
      setError(saveTrouble(caught));
    } finally {
      setBusy(false);
    }
  };
  const rename = () =>
    run(async () => onChanged(await send('templates.rename', { id: template.id, name: name.trim() })));
  const remove = () =>
    run(async () => {
      await send('templates.remove', template.id);
      onChanged({ removed: template.id });
    });
  return (
    <div className="flex flex-col gap-2 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      {mode === 'rename' ? (
        <div className="flex items-end gap-2">
          <Field label="New name" className="flex-1">
            {(control) => (
              <Input {...control} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
            )}
          </Field>
          <Button type="button" variant="outline" onClick={() => setMode('idle')}>
            Cancel
          </Button>
          <Button type="button" disabled={busy || !online || !name.trim()} onClick={() => void rename()}>
            Rename
          </Button>
        </div>
      ) : mode === 'delete' ? (
        <div className="flex flex-wrap items-center gap-2">
          <p className="flex-1 text-sm text-zinc-700 dark:text-zinc-300">
            {template.campaign_id !== null
              ? `Delete “${template.name}” for everyone in its campaign? What was made from it stays.`
              : `Delete “${template.name}”? What was made from it stays.`}
          </p>
          <Button type="button" variant="danger" disabled={busy || !online} onClick={() => void remove()}>
            Delete template
          </Button>
          <Button type="button" variant="outline" onClick={() => setMode('idle')}>
            Keep it
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <span className="min-w-0 flex-1 truncate text-sm text-zinc-600 dark:text-zinc-400">
            {template.campaign_id !== null ? 'Shared with its campaign' : 'Only yours'} · by{' '}
            {template.created_by.name}
          </span>
          <Button type="button" size="sm" variant="outline" onClick={() => setMode('rename')}>
            <Pencil aria-hidden />
            Rename…
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={() => setMode('delete')}>
            <Trash2 aria-hidden />
            Delete…
          </Button>
        </div>
      )}
      {mode !== 'idle' && !online ? (
        <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
          Changing a template needs a connection: you are offline.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** What a template holds, in words: '1 campaign, 3 tasks, 8 todos'. */
export function templateSummary(template: Pick<Template, 'tree'>): string {
  const counts = treeCounts(template.tree);
  const words: Record<ItemType, [string, string]> = {
    campaign: ['campaign', 'campaigns'],
    task: ['task', 'tasks'],
    todo: ['todo', 'todos'],
  };
  const parts = (['campaign', 'task', 'todo'] as const)
    .filter((t) => counts[t] > 0)
    .map((t) => `${counts[t]} ${words[t][counts[t] === 1 ? 0 : 1]}`);
  return parts.join(', ') || 'nothing';
}

/** Why a save failed, in words for the person. */
function saveTrouble(error: unknown): string {
  const status = (error as { status?: number } | null)?.status;
  if (status === 0) return 'Saving a template needs a connection. Try again once you are online.';
  if (status === 422) {
    const errors = (error as { data?: { errors?: Record<string, string[]> } }).data?.errors ?? {};
    const first = Object.values(errors)[0]?.[0];
    if (first) return first;
  }
  return error instanceof Error && error.message ? error.message : 'Could not save the template.';
}

/**
 * 'Save as template…' (ARCHITECTURE §4 'Templates'): a name and, for a task, whether the whole task or
 * only its todos (a checklist). The server snapshots the item, so it needs a connection.
 */
export function SaveTemplateDialog({
  item,
  open,
  onOpenChange,
}: {
  item: { id: number; type: ItemType; title: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { send } = useDoor();
  const toast = useToast();
  const { online } = useViewer();
  const [name, setName] = useState(item.title);
  const [kind, setKind] = useState<'task' | 'checklist'>('task');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError('The name is required.');
    setSaving(true);
    setError(null);
    try {
      const template = await send('templates.save', {
        name: name.trim(),
        itemId: item.id,
        ...(item.type === 'task' ? { kind: kind as TemplateKind } : {}),
      });
      toast({
        title: 'Template saved',
        description: `“${template.name}” holds ${templateSummary(template)}.`,
      });
      onOpenChange(false);
    } catch (caught) {
      setError(saveTrouble(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent
          title="Save as template"
          description={`Keeps “${item.title}” and what lies under it, dates as days from the earliest.`}
        >
          <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
            <Field label="Template name" error={error ?? undefined}>
              {(control) => (
                <Input {...control} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
              )}
            </Field>
            {item.type === 'task' ? (
              <RadioGroup
                aria-label="What to keep"
                value={kind}
                onValueChange={(v) => setKind(v as 'task' | 'checklist')}
              >
                <RadioOption value="task" label="Whole task" description="The task and its todos." />
                <RadioOption
                  value="checklist"
                  label="Checklist (its todos only)"
                  description="Adds the todos to another task later."
                />
              </RadioGroup>
            ) : null}
            {online ? null : (
              <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
                Saving a template needs a connection: you are offline.
              </p>
            )}
            <DialogFooter className="mt-2">
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={saving || !online}>
                Save template
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

/** The kinds of template one place creates from: a checklist goes under a task, a task anywhere. */
function kindsFor(parent: { type: ItemType } | null): readonly TemplateKind[] {
  if (!parent) return ['campaign', 'task'];
  if (parent.type === 'task') return ['checklist'];
  return ['task'];
}

/**
 * 'New from template' (and a task's 'Add checklist…'): the templates that fit here, a start date, and
 * Create, which writes the whole tree on the device at once, online or offline, with one Undo.
 */
export function NewFromTemplateDialog({
  parent,
  open,
  onOpenChange,
}: {
  /** Where the items go: a campaign (its tasks), a task (a checklist's todos), or null (the top). */
  parent: { id: number; type: ItemType; title: string } | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { send } = useDoor();
  const toast = useToast();
  const kinds = kindsFor(parent);
  const { list, changed } = useTemplates(open);
  const fitting = (list ?? []).filter((t) => kinds.includes(t.kind));
  const [chosen, setChosen] = useState<number | null>(null);
  const [anchor, setAnchor] = useState(localToday());
  const [creating, setCreating] = useState(false);
  const selected = fitting.find((t) => t.id === chosen) ?? fitting[0] ?? null;

  const create = async (event: FormEvent) => {
    event.preventDefault();
    if (!selected || !anchor) return;
    setCreating(true);
    try {
      const result = await send('templates.instantiate', {
        template: selected,
        anchorDate: anchor,
        parentId: parent?.id ?? null,
      });
      onOpenChange(false);
      const action = await undoAction(send, toast);
      toast({ title: result.label, ...(action ? { action } : {}) });
    } catch (caught) {
      toast({
        title: 'Could not create from the template',
        description: caught instanceof Error ? caught.message : 'Please try again.',
        variant: 'destructive',
      });
    } finally {
      setCreating(false);
    }
  };

  const title = parent?.type === 'task' ? 'Add checklist' : 'New from template';
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent
          title={title}
          description={
            parent
              ? `The items go into “${parent.title}”.`
              : 'Creates the template’s items, dates from the start.'
          }
        >
          <form onSubmit={(e) => void create(e)} className="flex flex-col gap-4">
            {list === undefined ? (
              <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
                Getting the templates…
              </p>
            ) : fitting.length === 0 ? (
              <p className="text-sm text-zinc-700 dark:text-zinc-300">
                {parent?.type === 'task'
                  ? 'No checklists yet. Save a task’s todos as a checklist from its menu.'
                  : 'No templates yet. Save a campaign or a task as a template from its menu.'}
              </p>
            ) : (
              <RadioGroup
                aria-label="Template"
                value={String(selected?.id ?? '')}
                onValueChange={(v) => setChosen(Number(v))}
                className="max-h-72 overflow-y-auto"
              >
                {fitting.map((t) => (
                  <RadioOption
                    key={t.id}
                    value={String(t.id)}
                    label={t.name}
                    description={templateSummary(t)}
                    icon={<LayoutTemplate aria-hidden />}
                  />
                ))}
              </RadioGroup>
            )}
            {selected ? <TemplateActions key={selected.id} template={selected} onChanged={changed} /> : null}
            <Field label="Starts on" hint="Every date in the template moves with it.">
              {(control) => (
                <Input
                  {...control}
                  type="date"
                  required
                  value={anchor}
                  onChange={(e) => setAnchor(e.target.value)}
                />
              )}
            </Field>
            <DialogFooter className="mt-2">
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={creating || !selected || !anchor}>
                Create
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
