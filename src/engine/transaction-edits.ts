/** Changing transactions: notes, tags and attachments, each with its event. */
import { createHash } from 'node:crypto';
import { writeFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Engine } from './engine.js';
import { TxaError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { nowIso } from '../core/clock.js';
import { validateBody } from '../core/validate.js';
import { tagApplySchema, txUpdateSchema } from '../core/schemas.js';
import type { Attachment, Transaction, UploadedFile } from '../core/types.js';
import { decimalToCents } from '../core/money.js';
import type { TransactionRow } from '../store/transactions.js';
import { updateValue } from '../store/insert-transactions.js';
import { getTransaction, hydrate, requireRow } from './transactions.js';
import { changesOf, changing } from './transaction-changes.js';
import { counterpartLeaving, decidedByHand } from './spam-tokens.js';
import { deleteTransfer } from '../store/transfers.js';
import { tagExists } from '../store/ledger.js';
import { linkTag, setNotes, tagIdsOf, unlinkTag } from '../store/transaction-edits.js';
import { countAttachments, insertAttachment } from '../store/attachments.js';

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const ATTACHMENTS_PER_TRANSACTION = 10;

/** Tag ids must name tags of this workspace (another workspace's tag is "not found"). */
function requireTags(engine: Engine, workspaceId: string, tagIds: string[], field: string): void {
  for (const id of tagIds) {
    if (!tagExists(engine.db, workspaceId, id)) throw new TxaError('TAG_NOT_FOUND', `tag ${id} not found`, { field });
  }
}

/** Adds tags; returns the ids that were not on the transaction before. */
function addTags(engine: Engine, txId: string, tagIds: string[]): string[] {
  return [...new Set(tagIds)].filter((id) => linkTag(engine.db, txId, id));
}

/**
 * Runs a change of one transaction and reports it: `transaction.tagged` when tags were added
 * (with the tags' old and new), `transaction.updated` for any other field that changed.
 */
function edit(
  engine: Engine,
  workspaceId: string,
  txId: string,
  // biome-ignore lint/suspicious/noConfusingVoidType: an edit may return nothing at all
  fn: (row: TransactionRow) => string[] | void,
  extra: Record<string, unknown> = {},
): Transaction {
  const row = requireRow(engine, workspaceId, txId);
  const before = hydrate(engine, [row])[0]!;
  const added = fn(row) ?? [];
  const tx = getTransaction(engine, workspaceId, txId);
  const { tags, ...others } = changesOf(before, tx);
  if (added.length === 0 && tags) others.tags = tags;
  if (Object.keys(others).length) engine.change(workspaceId, 'transaction.updated', txId, { transaction: tx, changes: others, ...extra });
  if (added.length) engine.change(workspaceId, 'transaction.tagged', txId, { transaction: tx, changes: { tags }, tag_ids: added });
  return tx;
}

export function tagTransaction(engine: Engine, workspaceId: string, txId: string, body: unknown): Transaction {
  const { tag_ids } = validateBody(tagApplySchema, body);
  return engine.write(() =>
    edit(engine, workspaceId, txId, () => {
      requireTags(engine, workspaceId, tag_ids, 'tag_ids');
      return addTags(engine, txId, tag_ids);
    }),
  );
}

export function untagTransaction(engine: Engine, workspaceId: string, txId: string, tagId: string): Transaction {
  return engine.write(() =>
    edit(
      engine,
      workspaceId,
      txId,
      () => {
        requireTags(engine, workspaceId, [tagId], 'tag_id');
        unlinkTag(engine.db, txId, tagId);
      },
      { removed_tag_ids: [tagId] },
    ),
  );
}

export function updateTransaction(engine: Engine, workspaceId: string, txId: string, body: unknown): Transaction {
  const patch = validateBody(txUpdateSchema, body);
  const write = () =>
    edit(engine, workspaceId, txId, (row) => {
      if (patch.notes !== undefined) {
        const notes = patch.notes === null || patch.notes.trim() === '' ? null : patch.notes;
        if (notes !== row.notes) setNotes(engine.db, txId, notes);
      }
      if (patch.fiat_value !== undefined || patch.spam !== undefined) setValue(engine, row, patch.fiat_value, patch.spam);
      if (patch.tag_ids === undefined) return [];
      requireTags(engine, workspaceId, patch.tag_ids, 'tag_ids');
      const keep = new Set(patch.tag_ids);
      for (const id of tagIdsOf(engine.db, txId).filter((id) => !keep.has(id))) unlinkTag(engine.db, txId, id);
      return addTags(engine, txId, patch.tag_ids);
    });
  return engine.write(() => changing(engine, workspaceId, counterpartLeaving(engine, workspaceId, txId, patch.spam), write));
}

/** What a rule changes on a row (src/rules): tags added, notes (null clears), the spam flag. */
export interface RowEdit {
  addTagIds: string[];
  notes?: string | null;
  spam?: boolean;
}

/**
 * Applies a rule's edit to one row inside the caller's write transaction, with the same events as
 * the API's edits (`transaction.tagged` for tags added, `transaction.updated` for the rest).
 * Tag ids must be the workspace's (the caller resolved them).
 */
export function applyRowEdit(engine: Engine, workspaceId: string, txId: string, change: RowEdit): Transaction {
  return changing(engine, workspaceId, counterpartLeaving(engine, workspaceId, txId, change.spam), () =>
    edit(engine, workspaceId, txId, (row) => {
      if (change.notes !== undefined && change.notes !== row.notes) setNotes(engine.db, txId, change.notes);
      if (change.spam !== undefined) setValue(engine, row, undefined, change.spam);
      return addTags(engine, txId, change.addTagIds);
    }),
  );
}

/**
 * A fiat value set by hand (exact cents of its decimal text; its source becomes `manual`, or none
 * when cleared) and the spam flag; a row flagged leaves its own transfer (the caller tells the
 * counterpart's change: counterpartLeaving).
 */
function setValue(engine: Engine, row: TransactionRow, fiatValue: number | null | undefined, spam: boolean | undefined): void {
  const cents = fiatValue === undefined ? row.fiat_cents : fiatValue === null ? null : decimalToCents(String(fiatValue));
  const source = fiatValue === undefined ? row.fiat_value_source : cents === null ? null : 'manual';
  updateValue(engine.db, row, { fiat_cents: cents, fiat_value_source: source, spam: spam === undefined ? row.spam : Number(spam) });
  if (spam !== undefined) decidedByHand(engine, row.id);
  if (spam && row.transfer_id) deleteTransfer(engine.db, row.transfer_id);
}

/** A display name without any directory part: `../../etc/passwd` is stored as `passwd`. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'attachment' : cleaned.slice(0, 255);
}

export function attachFile(engine: Engine, workspaceId: string, txId: string, file: UploadedFile): Attachment {
  if (file.data.length > ATTACHMENT_MAX_BYTES) {
    throw new TxaError('PAYLOAD_TOO_LARGE', `attachments are limited to 10 MB each; this file has ${file.data.length} bytes`, { field: 'file' });
  }
  requireRow(engine, workspaceId, txId);
  const id = newId('att');
  const dir = engine.dir('attachments');
  // The bytes land under the attachment's id (never the user's name), written then renamed.
  const tmp = join(dir, `${id}.tmp`);
  const stored = join(dir, id);
  writeFileSync(tmp, file.data);
  renameSync(tmp, stored);
  try {
    return recordAttachment(engine, workspaceId, txId, id, file);
  } catch (err) {
    rmSync(stored, { force: true });
    throw err;
  }
}

function recordAttachment(engine: Engine, workspaceId: string, txId: string, id: string, file: UploadedFile): Attachment {
  const attachment: Attachment = {
    id,
    file_name: safeFileName(file.file_name),
    file_url: engine.attachmentUrl(id),
    file_size: file.data.length,
    uploaded_at: nowIso(),
  };
  const insert = () => {
    if (countAttachments(engine.db, txId) >= ATTACHMENTS_PER_TRANSACTION) {
      throw new TxaError('PAYLOAD_TOO_LARGE', `a transaction holds at most ${ATTACHMENTS_PER_TRANSACTION} attachments`, { field: 'file' });
    }
    insertAttachment(engine.db, {
      id,
      transaction_id: txId,
      file_name: attachment.file_name,
      content_type: file.content_type,
      file_size: attachment.file_size,
      sha256: createHash('sha256').update(file.data).digest('hex'),
      stored_name: id,
      uploaded_at: attachment.uploaded_at,
    });
  };
  engine.write(() => edit(engine, workspaceId, txId, insert, { attachment }));
  return attachment;
}
