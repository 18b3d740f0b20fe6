import { CircleAlert } from 'lucide-react';
import { useState } from 'react';
import { bodyText, type Comment } from '../../shared/comments';
import { useToast } from '../app/door';
import { ConfirmDialog } from '../components/ui/AlertDialog';
import { Button } from '../components/ui/Button';
import type { CommentRefusal } from '../data/store/types';
import { CommentBody } from './CommentBody';
import { CommentByline, TimelineTime } from './CommentByline';
import { Composer, type Person } from './Composer';
import { useCommentActions } from './mutations';

/** The refusal a timeline row's comment carries (the device's stored row has it, K20), or null. */
export function refusalOf(comment: Comment): CommentRefusal | null {
  const refused = (comment as Comment & { _refused?: CommentRefusal | null })._refused;
  return refused ?? null;
}

/**
 * A comment or an edit the server refused (SYNC.md K20), in its place in the timeline: the text as
 * written, 'Not sent: <reason>' ('Not saved' for an edit), and what its author can do: Edit (send it
 * again, fixed), Copy text, and Discard (for an edit, back to the text the server has).
 */
export function RefusedComment({
  comment,
  people,
  measureRef,
}: {
  comment: Comment;
  people: readonly Person[];
  measureRef?: (el: HTMLLIElement | null) => void;
}) {
  const actions = useCommentActions(comment.item_id);
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const refusal = refusalOf(comment);
  if (!refusal) return null;
  const isEdit = refusal.what === 'edit';
  const text = bodyText(comment.body, comment.mentions);
  const reasonId = `refused-${comment.uuid}`;

  const copy = async () => {
    try {
      // Without the word joiners that keep a typed `@[12]` from being a mention (escapeTypedTokens).
      await navigator.clipboard.writeText(text.replaceAll('\u2060', ''));
      toast({ title: 'Text copied' });
    } catch {
      toast({
        title: 'Not copied',
        description: 'This browser did not allow it: select the text to copy it.',
      });
    }
  };

  return (
    <li
      ref={measureRef}
      id={comment.id > 0 ? `comment-${comment.id}` : undefined}
      aria-describedby={reasonId}
      className="rounded-xl border border-red-300 bg-red-50/40 p-3 dark:border-red-900 dark:bg-red-950/20"
      data-comment={comment.uuid}
      data-refused={refusal.what}
    >
      <div className="mb-1 flex items-center gap-2">
        <CommentByline name={comment.user.name}>
          <TimelineTime at={comment.updated_at} />
          {isEdit ? ' · your edit' : null}
        </CommentByline>
      </div>
      {editing ? (
        <Composer
          people={people}
          label={isEdit ? 'Edit comment' : 'Edit comment to send again'}
          submitLabel={isEdit ? 'Save' : 'Send'}
          initial={text}
          initialPicked={comment.mentions}
          onCancel={() => setEditing(false)}
          onSend={async (body, mentions) => {
            if (await actions.edit(comment, body, mentions)) setEditing(false);
          }}
        />
      ) : (
        <>
          <CommentBody comment={comment} />
          <p
            id={reasonId}
            className="mt-2 flex items-start gap-1.5 text-xs text-red-800 [overflow-wrap:anywhere] dark:text-red-300"
          >
            <CircleAlert className="mt-px size-3.5 shrink-0" aria-hidden />
            <span>
              {isEdit ? 'Not saved' : 'Not sent'}: {refusal.message}
            </span>
          </p>
          <div className="mt-2 flex flex-wrap gap-1">
            <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button variant="ghost" size="sm" onClick={() => void copy()}>
              Copy text
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setConfirming(true)}>
              {isEdit ? 'Use saved text' : 'Discard'}
            </Button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={isEdit ? 'Go back to the saved text?' : 'Discard this comment?'}
        description={
          isEdit
            ? 'Your edit goes from this device; the comment reads as everyone else sees it.'
            : 'It was never sent, so it goes from this device for good.'
        }
        confirmLabel={isEdit ? 'Use saved text' : 'Discard'}
        tone="danger"
        onConfirm={() =>
          void actions.discardRefused(comment, isEdit ? 'Saved text restored' : 'Comment discarded')
        }
      />
    </li>
  );
}
