import { type FormEvent, useState } from 'react';
import { useStore } from 'zustand';
import { NAME_MAX, PLACEHOLDER_NAME } from '../../shared/profile';
import { toast, useDoor } from '../app/door';
import { Button } from '../components/ui';
import { Field } from '../components/ui/Field';
import { Input } from '../components/ui/Input';
import { Section } from '../components/ui/Section';

/** The server's reason for a refused name (a 422's field error), or a plain one. */
function refusal(error: unknown): string {
  const { status, message, data } = (error ?? {}) as { status?: number; message?: unknown; data?: unknown };
  const errors = (data as { errors?: Record<string, string[]> } | undefined)?.errors;
  if (status === 422)
    return errors?.name?.[0] ?? (typeof message === 'string' ? message : 'This name cannot be used.');
  if (status === 0) return 'You are offline. Change your name when you are back online.';
  return 'Could not save your name. Please try again.';
}

/**
 * Preferences › Your name (N13): what colleagues see in Share, mentions, avatars and notifications.
 * The tutorial's placeholder is called out, so a person who skipped the name knows to set one.
 */
export function NameSection() {
  const { auth } = useDoor();
  const stored = useStore(auth, (s) => s.user.name);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const value = draft ?? stored;
  const trimmed = value.trim();
  const changed = trimmed !== stored && trimmed !== '';

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (trimmed === '') return setError('Enter a name.');
    if (trimmed.length > NAME_MAX) return setError(`A name may be at most ${NAME_MAX} characters.`);
    setBusy(true);
    try {
      await auth.getState().rename(trimmed);
      setDraft(null);
      setError(null);
      toast({ title: 'Name saved', description: 'Your colleagues see it from their next sync.' });
    } catch (caught) {
      setError(refusal(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section
      id="pref-name"
      title="Your name"
      description="How colleagues see you in Share, mentions, avatars and notifications."
    >
      <form onSubmit={(event) => void save(event)} className="flex flex-col gap-3" noValidate>
        <Field
          label="Name"
          error={error ?? undefined}
          hint={
            stored === PLACEHOLDER_NAME
              ? `Colleagues see you as ‘${PLACEHOLDER_NAME}’ until you set your name.`
              : undefined
          }
        >
          {(field) => (
            <Input
              {...field}
              autoComplete="name"
              maxLength={NAME_MAX + 20}
              value={value}
              onChange={(e) => {
                setDraft(e.target.value);
                setError(null);
              }}
            />
          )}
        </Field>
        <Button type="submit" disabled={busy || !changed} className="self-start">
          {busy ? 'Saving…' : 'Save name'}
        </Button>
      </form>
    </Section>
  );
}
