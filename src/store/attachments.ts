/** Attachment records; the bytes are files under `<ledger>.files/attachments/`, named by the record's `stored_name` (docs/storage.md). */
import type { Db } from './db.js';
import { prepareCached } from './statements.js';

export interface AttachmentRow {
  id: string;
  transaction_id: string;
  file_name: string;
  content_type: string;
  file_size: number;
  sha256: string;
  stored_name: string;
  uploaded_at: string;
}

export function countAttachments(db: Db, transactionId: string): number {
  return (prepareCached(db, 'SELECT count(*) AS n FROM attachments WHERE transaction_id = ?').get(transactionId) as { n: number }).n;
}

export function insertAttachment(db: Db, a: AttachmentRow): void {
  prepareCached(
    db,
    'INSERT INTO attachments (id, transaction_id, file_name, content_type, file_size, sha256, stored_name, uploaded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(a.id, a.transaction_id, a.file_name, a.content_type, a.file_size, a.sha256, a.stored_name, a.uploaded_at);
}

/** An attachment of a transaction of the workspace (another workspace's is not found). */
export function findAttachment(
  db: Db,
  workspaceId: string,
  id: string,
): Pick<AttachmentRow, 'id' | 'file_name' | 'content_type' | 'file_size' | 'stored_name'> | undefined {
  return prepareCached(
    db,
    `SELECT a.id, a.file_name, a.content_type, a.file_size, a.stored_name FROM attachments a
         JOIN transactions t ON t.id = a.transaction_id WHERE a.id = ? AND t.workspace_id = ?`,
  ).get(id, workspaceId) as Pick<AttachmentRow, 'id' | 'file_name' | 'content_type' | 'file_size' | 'stored_name'> | undefined;
}
